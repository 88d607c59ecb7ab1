using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json.Nodes;
using FluentAssertions.Execution;
using PerfBudgets.Reporting.Storage;

using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests;

public abstract class ResultsServerUploadTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private Task<RunningResultsServer> StartAsync(long maxUploadBytes = 8 * 1024 * 1024, bool readTokenRequired = false) =>
        RunningResultsServer.StartAsync(maxUploadBytes, readTokenRequired, Postgres);

    [Fact]
    public async Task An_upload_is_stored_whole_and_served_back_as_the_commits_results_json()
    {
        await using var server = await StartAsync();
        var results = RunningResultsServer.ResultsJson(budgets: 4);

        using var response = await server.UploadAsync(RunningResultsServer.UploadBody("a1", ["a0"], results).ToJsonString());

        response.StatusCode.Should().Be(HttpStatusCode.Created, await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken));
        (await server.CountAsync()).Should().Be((1, 4));
        var served = await server.Http.GetStringAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=a1", TestContext.Current.CancellationToken);
        JsonNode.DeepEquals(JsonNode.Parse(served), JsonNode.Parse(results)).Should().BeTrue();
        ResultStore.Parse(served).Select(r => r.Budget).Should().HaveCount(4).And.Contain("Test.Budget3.BytesPerOp");
    }

    [Fact]
    public async Task An_upload_without_a_token_is_401_and_with_a_wrong_one_403_and_stores_nothing()
    {
        await using var server = await StartAsync();
        var body = RunningResultsServer.UploadBody("a1").ToJsonString();

        using var none = await server.UploadAsync(body, token: "");
        using var wrong = await server.UploadAsync(body, token: new string('0', 64));

        none.StatusCode.Should().Be(HttpStatusCode.Unauthorized);
        none.Headers.WwwAuthenticate.ToString().Should().Be("Bearer");
        wrong.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        (await ProblemDetail(wrong)).Should().Contain("not project 'gate''s write token");
        (await server.CountAsync()).Should().Be((0, 0));
    }

    private static (string What, string Body, string Reason)[] BadBodies =>
    [
        ("not JSON", "{\"commit\": ", "not JSON"),
        ("truncated JSON", RunningResultsServer.UploadBody("a1").ToJsonString()[..200], "not JSON"),
        ("an array", "[]", "must be a JSON object"),
        ("no commit", Without("commit"), "'commit' is missing"),
        ("no results", Without("results"), "'results' is missing"),
        ("parents not an array", With("parents", JsonValue.Create("a0")), "'parents' must be an array"),
        ("commit a number", With("commit", JsonValue.Create(42)), "'commit' must be a non-empty string"),
        ("measured a string", WithResult("measured", JsonValue.Create("fast")), "'results[0].measured' must be a number"),
        ("no budget", WithResult("budget", null), "'results[0].budget' is missing"),
        ("ancestry not an array", With("ancestry", JsonValue.Create("b1")), "'ancestry' must be an array"),
        ("ancestry without parents", With("ancestry", JsonNode.Parse("[{\"commit\": \"b1\"}]")), "'ancestry[0].parents' is missing"),
        ("no figures", RunningResultsServer.UploadBody("a1", resultsJson: "{\"results\": []}").ToJsonString(), "holds no results"),
        ("unknown verdict", WithResult("verdict", JsonValue.Create("great")), "'results[0].verdict' is 'great'"),
        // The core's reader takes an enum's number and any case; the server stores the names results.json writes.
        ("verdict a number", WithResult("verdict", JsonValue.Create(1)), "'results[0].verdict' must be a non-empty string"),
        ("verdict in capitals", WithResult("verdict", JsonValue.Create("PASS")), "'results[0].verdict' is 'PASS'"),
        ("no verdict", WithResult("verdict", null), "'results[0].verdict' is missing"),
        // Fields the server does not keep are still read by PERF_BASELINE, which this one would break.
        ("a time that is none", WithResult("timestampUtc", JsonValue.Create("yesterday")), "'results' is not a results.json"),
        ("an empty kind", WithResult("kind", JsonValue.Create(" ")), "'results[0].kind' must be a non-empty string"),
    ];

    // One server for every bad body (a server per case cost about 0.2 s each on PostgreSQL): each is refused on its own
    // and the database holds nothing after all of them.
    [Fact]
    public async Task A_bad_body_is_refused_with_400_naming_what_is_wrong_and_stores_nothing()
    {
        await using var server = await StartAsync();

        using (new AssertionScope())
        {
            foreach (var bad in BadBodies)
            {
                var (what, body, reason) = bad;
                using var response = await server.UploadAsync(body);

                response.StatusCode.Should().Be(HttpStatusCode.BadRequest, what);
                response.Content.Headers.ContentType!.MediaType.Should().Be("application/problem+json", what);
                (await ProblemDetail(response)).Should().Contain(reason, what);
            }
        }

        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Fact]
    public async Task An_upload_that_is_not_json_content_is_415_and_stores_nothing()
    {
        await using var server = await StartAsync();

        using var response = await server.UploadAsync(RunningResultsServer.UploadBody("a1").ToJsonString(), contentType: "text/plain");

        response.StatusCode.Should().Be(HttpStatusCode.UnsupportedMediaType);
        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Fact]
    public async Task An_upload_over_the_size_limit_is_413_with_or_without_a_content_length_and_stores_nothing()
    {
        await using var server = await StartAsync(maxUploadBytes: 4096);
        var body = RunningResultsServer.UploadBody("a1", resultsJson: RunningResultsServer.ResultsJson(budgets: 40)).ToJsonString();
        body.Length.Should().BeGreaterThan(4096);

        // With Content-Length, refused before the body is asked for (Expect: 100-continue, as the tool sends it).
        using var sized = new HttpRequestMessage(HttpMethod.Post, $"api/projects/{RunningResultsServer.Project}/runs")
        {
            Content = new StringContent(body, Encoding.UTF8, "application/json"),
        };
        sized.Headers.ExpectContinue = true;
        sized.Headers.Authorization = new("Bearer", server.Token);
        using var sizedResponse = await server.Http.SendAsync(sized, TestContext.Current.CancellationToken);
        // Chunked, so the size is known only as the body arrives: the whole request is written before the answer is read.
        var chunked = await RawExchangeAsync(server,
            $"Transfer-Encoding: chunked\r\n\r\n{Encoding.UTF8.GetByteCount(body):x}\r\n{body}\r\n0\r\n\r\n");

        sizedResponse.StatusCode.Should().Be(HttpStatusCode.RequestEntityTooLarge);
        (await ProblemDetail(sizedResponse)).Should().Contain("4096 bytes");
        chunked.Should().StartWith("HTTP/1.1 413");
        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Fact]
    public async Task A_connection_dropped_halfway_through_an_upload_leaves_no_run()
    {
        await using var server = await StartAsync();
        var body = Encoding.UTF8.GetBytes(RunningResultsServer.UploadBody("a1").ToJsonString());

        using (var client = new TcpClient())
        {
            await client.ConnectAsync(IPAddress.Loopback, server.Server.Address.Port, TestContext.Current.CancellationToken);
            var stream = client.GetStream();
            var head = $"POST /api/projects/{RunningResultsServer.Project}/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                $"Authorization: Bearer {server.Token}\r\nContent-Type: application/json\r\nContent-Length: {body.Length}\r\n\r\n";
            await stream.WriteAsync(Encoding.ASCII.GetBytes(head), TestContext.Current.CancellationToken);
            await stream.WriteAsync(body.AsMemory(0, body.Length / 2), TestContext.Current.CancellationToken);
            await stream.FlushAsync(TestContext.Current.CancellationToken);
        }

        // The server sees the connection end while it reads; a whole upload after it still lands, alone.
        using var after = await server.UploadAsync(RunningResultsServer.UploadBody("a2").ToJsonString());
        after.StatusCode.Should().Be(HttpStatusCode.Created);
        (await server.CountAsync()).Should().Be((1, 3));
    }

    [Fact]
    public async Task Two_times_twenty_concurrent_uploads_all_land_whole()
    {
        await using var server = await StartAsync();
        const int PerWriter = 20;

        var uploads = Enumerable.Range(0, 2 * PerWriter)
            .Select(i => server.UploadAsync(RunningResultsServer.UploadBody($"c{i}", resultsJson: RunningResultsServer.ResultsJson(budgets: 5, measured: i)).ToJsonString()))
            .ToArray();
        var responses = await Task.WhenAll(uploads);

        responses.Select(r => r.StatusCode).Should().AllBeEquivalentTo(HttpStatusCode.Created);
        (await server.CountAsync()).Should().Be((2 * PerWriter, 2 * PerWriter * 5));
        var last = ResultStore.Parse(await server.Http.GetStringAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=c39", TestContext.Current.CancellationToken));
        last.Select(r => r.Measured).Should().Equal(39, 40, 41, 42, 43);
        foreach (var response in responses)
        {
            response.Dispose();
        }
    }

    // Writes a POST upload's headers and then rest (more headers, a blank line and the body) on a raw connection, and
    // reads the answer until the server closes it.
    private static async Task<string> RawExchangeAsync(RunningResultsServer server, string rest)
    {
        using var client = new TcpClient();
        await client.ConnectAsync(IPAddress.Loopback, server.Server.Address.Port, TestContext.Current.CancellationToken);
        var stream = client.GetStream();
        var request = $"POST /api/projects/{RunningResultsServer.Project}/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
            $"Authorization: Bearer {server.Token}\r\nContent-Type: application/json\r\n" + rest;
        await stream.WriteAsync(Encoding.UTF8.GetBytes(request), TestContext.Current.CancellationToken);
        using var reader = new StreamReader(stream, Encoding.UTF8);
        return await reader.ReadToEndAsync(TestContext.Current.CancellationToken);
    }

    internal static async Task<string> ProblemDetail(HttpResponseMessage response) =>
        JsonNode.Parse(await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!["detail"]!.GetValue<string>();

    private static string Without(string field)
    {
        var body = RunningResultsServer.UploadBody("a1");
        body.Remove(field);
        return body.ToJsonString();
    }

    private static string With(string field, JsonNode? value)
    {
        var body = RunningResultsServer.UploadBody("a1");
        body[field] = value;
        return body.ToJsonString();
    }

    private static string WithResult(string field, JsonNode? value)
    {
        var body = RunningResultsServer.UploadBody("a1");
        var first = body["results"]!["results"]![0]!.AsObject();
        if (value is null)
        {
            first.Remove(field);
        }
        else
        {
            first[field] = value;
        }

        return body.ToJsonString();
    }
}

/// <summary>Uploads on SQLite.</summary>
public sealed class ResultsServerUploadTestsOnSqlite : ResultsServerUploadTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Uploads on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ResultsServerUploadTestsOnPostgres(PostgresCluster cluster) : ResultsServerUploadTests
{
    protected override PostgresCluster? Postgres => cluster;
}
