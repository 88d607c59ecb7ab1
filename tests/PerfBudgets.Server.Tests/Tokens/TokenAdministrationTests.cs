using System.CommandLine;
using System.Net;
using System.Net.Http.Headers;
using PerfBudgets.Server.Tests.Postgres;
using PerfBudgets.Server.Tokens;
using PerfBudgets.Server.Cli;

namespace PerfBudgets.Server.Tests.Tokens;

/// <summary>A project's tokens replaced and revoked (<c>serve --rotate-token</c>, <c>--revoke-token</c>, <c>--revoke-read-token</c>).</summary>
public abstract class TokenAdministrationTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_rotated_write_token_is_refused_and_the_new_one_uploads()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var body = RunningResultsServer.UploadBody("a1").ToJsonString();

        var rotated = await TokenAdministration.RotateWriteTokenAsync(server.Server.Storage, RunningResultsServer.Project, Cancellation);
        using var old = await server.UploadAsync(body, server.Token);
        using var fresh = await server.UploadAsync(body, rotated);

        old.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        fresh.StatusCode.Should().Be(HttpStatusCode.Created);
        (await server.CountAsync()).Runs.Should().Be(1);
    }

    [Fact]
    public async Task A_revoked_write_token_is_refused_while_the_runs_stay_readable_until_a_new_one_is_made()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        (await server.UploadAsync(RunningResultsServer.UploadBody("a1").ToJsonString())).EnsureSuccessStatusCode().Dispose();

        await TokenAdministration.RevokeWriteTokenAsync(server.Server.Storage, RunningResultsServer.Project, Cancellation);
        using var revoked = await server.UploadAsync(RunningResultsServer.UploadBody("b1").ToJsonString());
        using var read = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=a1", Cancellation);
        var rotated = await TokenAdministration.RotateWriteTokenAsync(server.Server.Storage, RunningResultsServer.Project, Cancellation);
        using var afterRotation = await server.UploadAsync(RunningResultsServer.UploadBody("b1").ToJsonString(), rotated);

        revoked.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        read.StatusCode.Should().Be(HttpStatusCode.OK);
        afterRotation.StatusCode.Should().Be(HttpStatusCode.Created);
        (await server.CountAsync()).Runs.Should().Be(2);
    }

    [Fact]
    public async Task A_revoked_read_token_no_longer_reads()
    {
        await using var server = await RunningResultsServer.StartAsync(readTokenRequired: true, postgres: Postgres);
        var readToken = await TokenAdministration.AddReadTokenAsync(server.Server.Storage, RunningResultsServer.Project, Cancellation);
        var path = $"api/projects/{RunningResultsServer.Project}/budgets";

        using var before = await GetAsync(server, path, readToken);
        await TokenAdministration.RevokeReadTokenAsync(server.Server.Storage, RunningResultsServer.Project, Cancellation);
        using var after = await GetAsync(server, path, readToken);
        using var withWriteToken = await GetAsync(server, path, server.Token);

        before.StatusCode.Should().Be(HttpStatusCode.OK);
        after.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        withWriteToken.StatusCode.Should().Be(HttpStatusCode.OK);
    }

    [Fact]
    public async Task Rotating_or_revoking_a_project_that_does_not_exist_is_refused()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);

        var rotate = () => TokenAdministration.RotateWriteTokenAsync(server.Server.Storage, "nobody", Cancellation);

        (await rotate.Should().ThrowAsync<ServerInputException>()).Which.Message.Should().Contain("no project 'nobody'");
    }

    private static Task<HttpResponseMessage> GetAsync(RunningResultsServer server, string path, string token)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return server.Http.SendAsync(request, Cancellation);
    }
}

/// <summary>Token administration on SQLite, and through <c>perfbudgets-server</c>'s options.</summary>
public sealed class TokenAdministrationTestsOnSqlite : TokenAdministrationTests
{
    protected override PostgresCluster? Postgres => null;

    [Fact]
    public async Task Serve_rotate_token_prints_a_new_write_token_and_revoke_token_leaves_none()
    {
        var folder = Directory.CreateTempSubdirectory("perfbudgets-tokens-").FullName;
        var database = Path.Combine(folder, "results.db");
        var output = Console.Out;
        try
        {
            var created = await ServeAsync(database, "--add-project", "gate");
            var rotated = await ServeAsync(database, "--rotate-token", "gate");
            using (var storage = new PerfBudgets.Server.Storage.SqliteResultsStorage(database))
            {
                var hash = await storage.TokenHashAsync("gate", TestContext.Current.CancellationToken);
                ProjectToken.Matches(rotated, hash!).Should().BeTrue();
                ProjectToken.Matches(created, hash!).Should().BeFalse();
            }

            await ServeAsync(database, "--revoke-token", "gate");
            using (var storage = new PerfBudgets.Server.Storage.SqliteResultsStorage(database))
            {
                var hash = await storage.TokenHashAsync("gate", TestContext.Current.CancellationToken);
                ProjectToken.Matches(rotated, hash!).Should().BeFalse();
            }
        }
        finally
        {
            Console.SetOut(output);
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task A_limit_out_of_range_on_the_command_line_is_refused_before_anything_is_done()
    {
        var folder = Directory.CreateTempSubdirectory("perfbudgets-limits-").FullName;
        var error = Console.Error;
        try
        {
            using var printed = new StringWriter();
            Console.SetError(printed);
            var exitCode = await ServeCommand.Create().Parse(["--database", Path.Combine(folder, "results.db"), "--max-concurrent-reads", "0", "--add-project", "gate"])
                .InvokeAsync(cancellationToken: TestContext.Current.CancellationToken);

            exitCode.Should().NotBe(0);
            printed.ToString().Should().Contain("MaxConcurrentReads must be positive");
        }
        finally
        {
            Console.SetError(error);
            Directory.Delete(folder, recursive: true);
        }
    }

    // Runs `perfbudgets-server --database FILE ARGS` and answers what it printed on standard output.
    private static async Task<string> ServeAsync(string database, params string[] args)
    {
        using var printed = new StringWriter();
        Console.SetOut(printed);
        var exitCode = await ServeCommand.Create().Parse(["--database", database, .. args]).InvokeAsync(cancellationToken: TestContext.Current.CancellationToken);
        exitCode.Should().Be(0);
        return printed.ToString().Trim();
    }
}

/// <summary>Token administration on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class TokenAdministrationTestsOnPostgres(PostgresCluster cluster) : TokenAdministrationTests
{
    protected override PostgresCluster? Postgres => cluster;
}
