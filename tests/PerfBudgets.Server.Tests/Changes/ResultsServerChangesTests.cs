using System.Net;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests.Changes;

/// <summary><c>GET /api/projects/{project}/changes</c> and <c>perfbudgets changes</c>, on a running server of each database.</summary>
public abstract class ResultsServerChangesTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    [Fact]
    public async Task A_p99_that_steps_up_at_run_10_of_20_is_one_change_at_that_commit_within_the_last_10_runs_and_the_counted_step_is_not_listed()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres, budgetsJson: TimedRuns.BudgetsJson);
        await TimedRuns.UploadSeriesAsync(server, count: 20, stepAt: 10);
        await TimedRuns.UploadSeriesAsync(server, count: 3, stepAt: 0, branch: "feature");

        var answer = await GetAsync(server, "changes?branch=main");

        answer["minRuns"]!.GetValue<int>().Should().Be(5);
        answer["minShift"].Should().BeNull("each budget takes its own");
        var change = answer["changes"]!.AsArray().Should().ContainSingle().Subject!;
        change["budget"]!.GetValue<string>().Should().Be(TimedRuns.P99);
        change["commit"]!.GetValue<string>().Should().Be("c10");
        change["runsAfter"]!.GetValue<int>().Should().Be(10);
        change["unit"]!.GetValue<string>().Should().Be("ms");
        change["medianBefore"]!.GetValue<double>().Should().BeApproximately(12.0, 0.2);
        change["medianAfter"]!.GetValue<double>().Should().BeApproximately(14.0, 0.2);
        change["relativeShift"]!.GetValue<double>().Should().BeApproximately(1.0 / 6, 0.02);
        change["runtimeChanged"]!.GetValue<bool>().Should().BeFalse();
        change["minShift"]!.GetValue<double>().Should().Be(0.1, "the budget's noise in the server's budgets.json");
        change["minShiftSource"]!.GetValue<string>().Should().Be("budget");
        (await GetAsync(server, "changes?branch=main&last=9"))["changes"]!.AsArray().Should().BeEmpty("the change is 10 runs back");
        (await GetAsync(server, "changes?branch=main&last=10"))["changes"]!.AsArray().Should().ContainSingle();
        (await GetAsync(server, "changes?branch=main&minShift=0.2"))["changes"]!.AsArray().Should().BeEmpty("the shift is under 20%");
        (await GetAsync(server, "changes?branch=feature"))["changes"]!.AsArray().Should().BeEmpty("the feature branch has 3 runs");
    }

    [Fact]
    public async Task Runs_of_one_commit_that_step_with_the_machine_mark_nothing_and_a_step_from_a_later_commit_on_is_marked_at_it()
    {
        // Three commits of 8, 16 and 8 runs; runs 4 to 10 of the second ran beside other work (+60%, 7 of its 16).
        // Then a fourth commit whose 8 runs are 25% slower: the budget's noise threshold (10%) and a margin.
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres, budgetsJson: TimedRuns.BudgetsJson);
        string[] commits = [.. Enumerable.Repeat("k0", 8), .. Enumerable.Repeat("k1", 16), .. Enumerable.Repeat("k2", 8)];
        for (var i = 0; i < commits.Length; i++)
        {
            await TimedRuns.UploadRunAsync(server, commits[i], commits[i] == "k0" ? null : $"k{commits[i][1] - '1'}",
                TimedRuns.P99Of(i, stepAt: null) * (i is >= 12 and <= 18 ? 1.6 : 1));
        }

        var machine = await GetAsync(server, "changes");
        for (var i = 0; i < 8; i++)
        {
            await TimedRuns.UploadRunAsync(server, "k3", "k2", TimedRuns.P99Of(32 + i, stepAt: null) * 1.25);
        }

        var code = await GetAsync(server, "changes");

        machine["changes"]!.AsArray().Should().BeEmpty("the step lies between runs of k1");
        var change = code["changes"]!.AsArray().Should().ContainSingle().Subject!;
        change["commit"]!.GetValue<string>().Should().Be("k3");
        change["index"]!.GetValue<int>().Should().Be(32);
        change["relativeShift"]!.GetValue<double>().Should().BeApproximately(0.25, 0.04);
    }

    internal static async Task<JsonNode> GetAsync(RunningResultsServer server, string pathAndQuery) =>
        JsonNode.Parse(await server.Http.GetStringAsync($"api/projects/{RunningResultsServer.Project}/{pathAndQuery}", TestContext.Current.CancellationToken))!;

}

/// <summary>
/// The changes endpoint and command on SQLite, with what does not depend on the database (no change in a flat series,
/// refusals, the command's output) tested here only.
/// </summary>
public sealed class ResultsServerChangesTestsOnSqlite : ResultsServerChangesTests
{
    protected override PostgresCluster? Postgres => null;

    [Fact]
    public async Task Twenty_unchanged_runs_have_no_change_and_bad_queries_are_400()
    {
        await using var server = await RunningResultsServer.StartAsync();
        await TimedRuns.UploadSeriesAsync(server, count: 20, stepAt: null);

        (await GetAsync(server, "changes")).AsObject()["changes"]!.AsArray().Should().BeEmpty();
        (await GetAsync(server, "changes?minShift=0.01")).AsObject()["changes"]!.AsArray().Should().BeEmpty("the ±3% wobble is not significant");
        using var zero = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/changes?last=0", TestContext.Current.CancellationToken);
        using var shift = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/changes?minShift=-1", TestContext.Current.CancellationToken);
        using var unknown = await server.Http.GetAsync("api/projects/nope/changes", TestContext.Current.CancellationToken);
        using var longest = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/changes?minRuns=2147483647", TestContext.Current.CancellationToken);
        longest.StatusCode.Should().Be(HttpStatusCode.BadRequest, "2 × minRuns overflowed: 500");
        (await ResultsServerUploadTests.ProblemDetail(longest)).Should().Contain("minRuns is at most 250");
        zero.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await ResultsServerUploadTests.ProblemDetail(zero)).Should().Contain("last must be a whole number");
        shift.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        unknown.StatusCode.Should().Be(HttpStatusCode.NotFound);
    }

    [Fact]
    public async Task Perfbudgets_changes_lists_the_budget_the_commit_the_levels_and_the_shift()
    {
        await using var server = await RunningResultsServer.StartAsync(budgetsJson: TimedRuns.BudgetsJson);
        await TimedRuns.UploadSeriesAsync(server, count: 20, stepAt: 10);

        var (exitCode, output, _) = await PerfBudgetsTool.RunAsync("changes",
            "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project, "--last", "10");
        var (_, stricter, _) = await PerfBudgetsTool.RunAsync("changes",
            "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project, "--min-shift", "0.2");
        var (missingCode, _, _) = await PerfBudgetsTool.RunAsync("changes",
            "--server", server.Server.Address.ToString(), "--project", "nope");

        exitCode.Should().Be(0);
        output.Should().MatchRegex(@"\| Load\.Api\.P99Ms \| c10 \| 12(\.\d+)? → 14(\.\d+)? \| ms \| \+1[67]% \| 10 \|");
        output.Should().EndWith($"1 change point in the timed budgets of main.{Environment.NewLine}");
        stricter.Should().Be($"0 change points in the timed budgets of main.{Environment.NewLine}");
        missingCode.Should().Be(PerfBudgetsTool.BadInput);
    }
}

/// <summary>The changes endpoint and command on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ResultsServerChangesTestsOnPostgres(PostgresCluster cluster) : ResultsServerChangesTests
{
    protected override PostgresCluster? Postgres => cluster;
}
