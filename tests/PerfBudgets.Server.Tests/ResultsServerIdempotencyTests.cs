using System.Net;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests;

/// <summary>An upload sent again with its <c>Idempotency-Key</c> (a client retrying after a lost answer) is stored once.</summary>
public abstract class ResultsServerIdempotencyTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    [Fact]
    public async Task An_upload_sent_twice_with_one_key_is_stored_once_and_answered_with_the_same_run()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var body = RunningResultsServer.UploadBody("a1").ToJsonString();

        using var first = await UploadAsync(server, body, "key-1");
        using var again = await UploadAsync(server, body, "key-1");

        first.StatusCode.Should().Be(HttpStatusCode.Created);
        again.StatusCode.Should().Be(HttpStatusCode.OK);
        var firstAnswer = JsonNode.Parse(await first.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!;
        var againAnswer = JsonNode.Parse(await again.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!;
        againAnswer["runId"]!.GetValue<long>().Should().Be(firstAnswer["runId"]!.GetValue<long>());
        againAnswer["replayed"]!.GetValue<bool>().Should().BeTrue();
        (await server.CountAsync()).Should().Be((1, 3));
    }

    [Fact]
    public async Task Concurrent_uploads_with_one_key_store_one_run_and_all_succeed()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var body = RunningResultsServer.UploadBody("a1").ToJsonString();

        var answers = await Task.WhenAll(Enumerable.Range(0, 6).Select(_ => UploadAsync(server, body, "key-1")));

        answers.Select(a => a.IsSuccessStatusCode).Should().AllBeEquivalentTo(true);
        answers.Count(a => a.StatusCode == HttpStatusCode.Created).Should().Be(1);
        (await server.CountAsync()).Should().Be((1, 3));
        foreach (var answer in answers)
        {
            answer.Dispose();
        }
    }

    [Fact]
    public async Task Uploads_without_a_key_or_with_different_keys_are_each_stored()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var body = RunningResultsServer.UploadBody("a1").ToJsonString();

        (await server.UploadAsync(body)).EnsureSuccessStatusCode().Dispose();
        (await server.UploadAsync(body)).EnsureSuccessStatusCode().Dispose();
        (await UploadAsync(server, body, "key-1")).EnsureSuccessStatusCode().Dispose();
        (await UploadAsync(server, body, "key-2")).EnsureSuccessStatusCode().Dispose();

        (await server.CountAsync()).Runs.Should().Be(4);
    }

    [Fact]
    public async Task A_key_sent_again_with_another_run_is_422_and_stores_nothing()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        (await UploadAsync(server, RunningResultsServer.UploadBody("a1").ToJsonString(), "key-1")).EnsureSuccessStatusCode().Dispose();

        using var other = await UploadAsync(server, RunningResultsServer.UploadBody("b1").ToJsonString(), "key-1");
        using var badKey = await UploadAsync(server, RunningResultsServer.UploadBody("b1").ToJsonString(), "with space");

        other.StatusCode.Should().Be(HttpStatusCode.UnprocessableEntity);
        (await ResultsServerUploadTests.ProblemDetail(other)).Should().Contain("another run (of commit a1)");
        badKey.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await server.CountAsync()).Runs.Should().Be(1);
    }

    [Fact]
    public async Task The_tools_upload_retries_when_its_answer_was_lost_and_the_server_stores_it_once()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        await using var proxy = new LosingFirstAnswerProxy(server.Server.Address);
        var folder = Directory.CreateTempSubdirectory("perfbudgets-upload-").FullName;
        try
        {
            var (exitCode, output, error) = await PerfBudgetsTool.UploadAsync(server, folder, "a1", "", RunningResultsServer.ResultsJson(), proxy.Address);

            exitCode.Should().Be(0, error);
            proxy.Connections.Should().Be(2, "the upload was sent again after its answer was lost");
            JsonNode.Parse(output)!["replayed"]!.GetValue<bool>().Should().BeTrue();
            (await server.CountAsync()).Should().Be((1, 3));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static Task<HttpResponseMessage> UploadAsync(RunningResultsServer server, string body, string key)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, $"api/projects/{RunningResultsServer.Project}/runs")
        {
            Content = new StringContent(body, System.Text.Encoding.UTF8, "application/json"),
        };
        request.Headers.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer", server.Token);
        request.Headers.Add("Idempotency-Key", key);
        return server.Http.SendAsync(request, TestContext.Current.CancellationToken);
    }
}

/// <summary>Idempotent uploads on SQLite.</summary>
public sealed class ResultsServerIdempotencyTestsOnSqlite : ResultsServerIdempotencyTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Idempotent uploads on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ResultsServerIdempotencyTestsOnPostgres(PostgresCluster cluster) : ResultsServerIdempotencyTests
{
    protected override PostgresCluster? Postgres => cluster;
}
