using PerfBudgets.Server.Tests.Changes;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary>The dashboard's budget page marks the change points of a timed budget, and only of a timed one.</summary>
public sealed class ChangePointMarksTests
{
    [Fact]
    public async Task The_p99_page_marks_the_step_at_its_commit_and_the_bytes_page_that_stepped_too_marks_none()
    {
        await using var server = await RunningResultsServer.StartAsync(budgetsJson: TimedRuns.BudgetsJson);
        await TimedRuns.UploadSeriesAsync(server, count: 20, stepAt: 10);

        var p99 = await server.Http.GetStringAsync($"projects/{RunningResultsServer.Project}/budgets/{TimedRuns.P99}", TestContext.Current.CancellationToken);
        var bytes = await server.Http.GetStringAsync($"projects/{RunningResultsServer.Project}/budgets/{TimedRuns.Bytes}", TestContext.Current.CancellationToken);

        p99.Should().Contain("Change points (1)").And.Contain("change point at c10");
        bytes.Should().Contain("Change points (0)").And.NotContain("change point at");
    }
}
