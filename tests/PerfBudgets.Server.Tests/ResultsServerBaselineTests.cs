using System.Net;
using System.Text.Json.Nodes;
using PerfBudgets.Reporting.Storage;

using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests;

public abstract class ResultsServerBaselineTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private Task<RunningResultsServer> StartAsync(long maxUploadBytes = 8 * 1024 * 1024, bool readTokenRequired = false) =>
        RunningResultsServer.StartAsync(maxUploadBytes, readTokenRequired, Postgres);

    [Fact]
    public async Task The_tool_uploads_a_run_and_fetches_it_back_as_a_baseline_PERF_BASELINE_reads()
    {
        await using var server = await StartAsync();
        var folder = Directory.CreateTempSubdirectory("perfbudgets-baseline-").FullName;
        try
        {
            var baseline = Path.Combine(folder, "baseline.json");
            var uploaded = await PerfBudgetsTool.UploadAsync(server, folder, "b1", "a1", RunningResultsServer.ResultsJson(budgets: 2));
            var fetched = await PerfBudgetsTool.RunAsync("baseline", "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project,
                "--commit", "b1", "--out", baseline);

            uploaded.ExitCode.Should().Be(0, uploaded.Error);
            fetched.ExitCode.Should().Be(0, fetched.Error);
            var figures = BaselineResults.Load(baseline);
            figures.Figure("Test.Budget0.BytesPerOp").Should().Be(120);
            figures.Figure("Test.Budget1.BytesPerOp").Should().Be(121);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task A_commit_without_a_run_is_404_naming_the_nearest_ancestor_with_one()
    {
        await using var server = await StartAsync();
        (await server.UploadAsync(RunningResultsServer.UploadBody("a1", ["a0"]).ToJsonString())).Dispose();
        (await server.UploadAsync(RunningResultsServer.UploadBody("b1", ["a1"]).ToJsonString())).Dispose();

        // c1 has no run; its parent b1, as the caller names it, has one.
        using var miss = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=c1&parents=b1", TestContext.Current.CancellationToken);
        using var unknown = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=z9", TestContext.Current.CancellationToken);

        miss.StatusCode.Should().Be(HttpStatusCode.NotFound);
        var problem = JsonNode.Parse(await miss.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!;
        problem["nearestAncestor"]!.GetValue<string>().Should().Be("b1");
        problem["detail"]!.GetValue<string>().Should().Contain("no run of commit c1").And.Contain("nearest ancestor with a run is b1");
        unknown.StatusCode.Should().Be(HttpStatusCode.NotFound);
        (await ResultsServerUploadTests.ProblemDetail(unknown)).Should().Contain("none of an ancestor it knows of");
    }

    [Fact]
    public async Task The_nearest_ancestor_is_found_past_commits_never_run_through_the_ancestry_an_upload_sent()
    {
        await using var server = await StartAsync();
        (await server.UploadAsync(RunningResultsServer.UploadBody("a1").ToJsonString())).Dispose();
        var later = RunningResultsServer.UploadBody("d1", ["c1"]);
        later["ancestry"] = JsonNode.Parse("""[{ "commit": "c1", "parents": ["b1"] }, { "commit": "b1", "parents": ["a1"] }]""");
        (await server.UploadAsync(later.ToJsonString())).Dispose();

        using var miss = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=c1", TestContext.Current.CancellationToken);

        miss.StatusCode.Should().Be(HttpStatusCode.NotFound);
        JsonNode.Parse(await miss.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!["nearestAncestor"]!.GetValue<string>().Should().Be("a1");
    }

    [Fact]
    public async Task The_tool_reports_a_miss_with_the_servers_reason()
    {
        await using var server = await StartAsync();
        var folder = Directory.CreateTempSubdirectory("perfbudgets-baseline-").FullName;
        try
        {
            var baseline = Path.Combine(folder, "baseline.json");
            (await PerfBudgetsTool.UploadAsync(server, folder, "b1", "a1", RunningResultsServer.ResultsJson())).ExitCode.Should().Be(0);

            var (exitCode, _, error) = await PerfBudgetsTool.RunAsync("baseline", "--server", server.Server.Address.ToString(),
                "--project", RunningResultsServer.Project, "--commit", "c1", "--parents", "b1", "--out", baseline);

            exitCode.Should().Be(PerfBudgetsTool.BadInput);
            error.Should().Contain("404").And.Contain("nearest ancestor with a run is b1");
            File.Exists(baseline).Should().BeFalse();
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}

/// <summary>Baselines on SQLite.</summary>
public sealed class ResultsServerBaselineTestsOnSqlite : ResultsServerBaselineTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Baselines on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ResultsServerBaselineTestsOnPostgres(PostgresCluster cluster) : ResultsServerBaselineTests
{
    protected override PostgresCluster? Postgres => cluster;
}
