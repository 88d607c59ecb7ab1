using System.Net;
using System.Net.Http.Headers;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Storage;
using PerfBudgets.Server.Tokens;

using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests;

/// <summary>The read API the dashboard, <c>perfbudgets changes</c> and <c>summary</c> stand on: latest figures and series.</summary>
public abstract class ResultsServerReadApiTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private Task<RunningResultsServer> StartAsync(long maxUploadBytes = 8 * 1024 * 1024, bool readTokenRequired = false) =>
        RunningResultsServer.StartAsync(maxUploadBytes, readTokenRequired, Postgres);

    private const string Budget = "Test.Budget0.BytesPerOp";

    [Fact]
    public async Task Budgets_answers_every_budget_of_the_branchs_latest_run_with_its_verdict()
    {
        await using var server = await StartAsync();
        await UploadAsync(server, "a1", measured: 120);
        await UploadAsync(server, "b1", measured: 250, verdict: "fail");
        await UploadAsync(server, "f1", measured: 90, branch: "feature");

        var latest = JsonNode.Parse(await server.Http.GetStringAsync($"api/projects/{RunningResultsServer.Project}/budgets?branch=main", TestContext.Current.CancellationToken))!.AsArray();
        var stored = await server.Server.Storage.GetLatestAsync(RunningResultsServer.Project, "feature", TestContext.Current.CancellationToken);

        latest.Select(b => b!["budget"]!.GetValue<string>()).Should().Equal("Test.Budget0.BytesPerOp", "Test.Budget1.BytesPerOp");
        var first = latest[0]!;
        first["commit"]!.GetValue<string>().Should().Be("b1");
        first["measured"]!.GetValue<double>().Should().Be(250);
        first["limit"]!.GetValue<double>().Should().Be(200);
        first["verdict"]!.GetValue<string>().Should().Be("fail");
        first["failed"]!.GetValue<bool>().Should().BeTrue();
        first["kind"]!.GetValue<string>().Should().Be("allocated-bytes-per-op");
        first["unit"]!.GetValue<string>().Should().Be("B/op");
        first["branch"]!.GetValue<string>().Should().Be("main");
        first["runId"]!.GetValue<long>().Should().Be(2);
        first["uploadedUtc"]!.GetValue<DateTimeOffset>().Should().BeCloseTo(DateTimeOffset.UtcNow, TimeSpan.FromMinutes(5));
        stored.Should().HaveCount(2).And.OnlyContain(b => b.Commit == "f1" && !b.Failed);
        (await server.Server.Storage.GetLatestAsync(RunningResultsServer.Project, "nowhere", TestContext.Current.CancellationToken)).Should().BeEmpty();
        var projects = await server.Server.Storage.ListProjectsAsync(TestContext.Current.CancellationToken);
        projects.Should().ContainSingle().Which.Should().Match<ProjectSummary>(p => p.Name == RunningResultsServer.Project && p.Runs == 3 && p.LastUploadUtc != null);
    }

    [Fact]
    public async Task Series_answers_one_point_per_run_oldest_first_marking_limit_and_runtime_changes()
    {
        await using var server = await StartAsync();
        await UploadAsync(server, "a1", measured: 120);
        await UploadAsync(server, "f1", measured: 90, branch: "feature");
        await UploadAsync(server, "b1", measured: 121, limit: 150);
        await UploadAsync(server, "c1", measured: 122, limit: 150, runtime: ".NET 10.0.14");

        var all = await server.Server.Storage.GetSeriesAsync(RunningResultsServer.Project, Budget, null, TestContext.Current.CancellationToken);
        var main = JsonNode.Parse(await server.Http.GetStringAsync(
            $"api/projects/{RunningResultsServer.Project}/budgets/{Budget}/series?branch=main", TestContext.Current.CancellationToken))!.AsArray();

        all.Select(p => p.Commit).Should().Equal("a1", "f1", "b1", "c1");
        main.Select(p => p!["commit"]!.GetValue<string>()).Should().Equal("a1", "b1", "c1");
        main.Select(p => p!["measured"]!.GetValue<double>()).Should().Equal(120, 121, 122);
        main.Select(p => p!["limitChanged"]!.GetValue<bool>()).Should().Equal(false, true, false);
        main.Select(p => p!["runtimeChanged"]!.GetValue<bool>()).Should().Equal(false, false, true);
        main[0]!["valgrindVersion"]!.GetValue<string>().Should().Be("valgrind-3.24.0");
        main[2]!["runtime"]!.GetValue<string>().Should().Be(".NET 10.0.14");
        main[0]!["runId"]!.GetValue<long>().Should().BeLessThan(main[1]!["runId"]!.GetValue<long>());
    }

    [Fact]
    public async Task Reads_of_an_unknown_project_or_budget_are_404()
    {
        await using var server = await StartAsync();
        await UploadAsync(server, "a1", measured: 120);

        using var project = await server.Http.GetAsync("api/projects/nope/budgets", TestContext.Current.CancellationToken);
        using var budget = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/budgets/Nope/series", TestContext.Current.CancellationToken);

        project.StatusCode.Should().Be(HttpStatusCode.NotFound);
        budget.StatusCode.Should().Be(HttpStatusCode.NotFound);
        (await ResultsServerUploadTests.ProblemDetail(budget)).Should().Contain("no run with budget 'Nope'");
    }

    [Fact]
    public async Task A_server_started_with_read_token_required_answers_reads_only_with_the_projects_write_or_read_token()
    {
        await using var server = await StartAsync(readTokenRequired: true);
        await UploadAsync(server, "a1", measured: 120);
        var readToken = ProjectToken.NewToken();
        await server.Server.Storage.SetReadTokenAsync(RunningResultsServer.Project, ProjectToken.Hash(readToken), TestContext.Current.CancellationToken);
        var path = $"api/projects/{RunningResultsServer.Project}/budgets";

        using var anonymous = await server.Http.GetAsync(path, TestContext.Current.CancellationToken);
        using var baseline = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=a1", TestContext.Current.CancellationToken);
        using var wrong = await GetAsync(server, path, new string('0', 64));
        using var withWriteToken = await GetAsync(server, path, server.Token);
        using var withReadToken = await GetAsync(server, $"api/projects/{RunningResultsServer.Project}/runs?commit=a1", readToken);
        using var uploadWithReadToken = await server.UploadAsync(RunningResultsServer.UploadBody("a2").ToJsonString(), token: readToken);

        anonymous.StatusCode.Should().Be(HttpStatusCode.Unauthorized);
        baseline.StatusCode.Should().Be(HttpStatusCode.Unauthorized);
        wrong.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        withWriteToken.StatusCode.Should().Be(HttpStatusCode.OK);
        withReadToken.StatusCode.Should().Be(HttpStatusCode.OK);
        uploadWithReadToken.StatusCode.Should().Be(HttpStatusCode.Forbidden, "a read-only token does not upload");
        (await server.CountAsync()).Runs.Should().Be(1);
    }

    private static async Task<HttpResponseMessage> GetAsync(RunningResultsServer server, string path, string token)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path) { Headers = { Authorization = new AuthenticationHeaderValue("Bearer", token) } };
        return await server.Http.SendAsync(request, TestContext.Current.CancellationToken);
    }

    internal static async Task UploadAsync(RunningResultsServer server, string commit, double measured, string verdict = "pass",
        double limit = 200, string branch = "main", string runtime = ".NET 10.0.12")
    {
        var body = RunningResultsServer.UploadBody(commit, resultsJson: RunningResultsServer.ResultsJson(budgets: 2, measured: measured));
        body["branch"] = branch;
        body["runtime"] = runtime;
        var first = body["results"]!["results"]![0]!;
        first["verdict"] = verdict;
        first["limit"] = limit;
        using var response = await server.UploadAsync(body.ToJsonString());
        response.StatusCode.Should().Be(HttpStatusCode.Created, await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken));
    }
}

/// <summary>The read API on SQLite.</summary>
public sealed class ResultsServerReadApiTestsOnSqlite : ResultsServerReadApiTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>The read API on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ResultsServerReadApiTestsOnPostgres(PostgresCluster cluster) : ResultsServerReadApiTests
{
    protected override PostgresCluster? Postgres => cluster;
}
