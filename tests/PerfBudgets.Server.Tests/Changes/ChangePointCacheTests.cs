using System.Text.Json.Nodes;

namespace PerfBudgets.Server.Tests.Changes;

/// <summary>
/// Change points are computed once per upload, not once per request: the changes endpoint and a budget page ask the
/// <see cref="ChangePointCache"/>, which keeps each answer until the project's runs change.
/// </summary>
public sealed class ChangePointCacheTests
{
    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Many_readers_of_the_changes_cost_one_computation_until_the_next_upload()
    {
        await using var server = await RunningResultsServer.StartAsync(budgetsJson: TimedRuns.BudgetsJson);
        await TimedRuns.UploadSeriesAsync(server, count: 20, stepAt: 10);

        var answers = await Task.WhenAll(Enumerable.Range(0, 10).Select(_ => server.Http.GetStringAsync($"api/projects/{RunningResultsServer.Project}/changes", Cancellation)));
        var afterBurst = server.Server.ChangePoints.Computed;
        await TimedRuns.UploadRunAsync(server, "c20", "c19", TimedRuns.P99Of(20, stepAt: 10));
        var afterUpload = await server.Http.GetStringAsync($"api/projects/{RunningResultsServer.Project}/changes", Cancellation);

        afterBurst.Should().Be(1);
        answers.Distinct().Should().ContainSingle();
        server.Server.ChangePoints.Computed.Should().Be(2, "the upload changed the runs");
        JsonNode.Parse(afterUpload)!["changes"]!.AsArray().Single()!["runsAfter"]!.GetValue<int>().Should().Be(11);
    }

    [Fact]
    public async Task A_budget_page_searches_the_whole_series_once_per_upload()
    {
        await using var server = await RunningResultsServer.StartAsync(budgetsJson: TimedRuns.BudgetsJson);
        await TimedRuns.UploadSeriesAsync(server, count: 20, stepAt: 10);
        var page = $"projects/{RunningResultsServer.Project}/budgets/{TimedRuns.P99}";

        for (var i = 0; i < 5; i++)
        {
            (await server.Http.GetStringAsync(page, Cancellation)).Should().Contain("class=\"change-point\"");
        }

        server.Server.ChangePoints.Computed.Should().Be(1);
    }
}
