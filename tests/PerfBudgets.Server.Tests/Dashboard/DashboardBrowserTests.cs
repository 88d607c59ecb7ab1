using System.Text.RegularExpressions;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary>
/// The dashboard as a browser sees it: headless chromium loads the pages from a server on 127.0.0.1 holding five runs
/// of a project (a re-recorded limit, a runtime change, the latest run failing one budget), and the DOM it built has
/// the budget rows, the chart with a point per run and the failure marked. Set <c>PERF_DASHBOARD_SCREENSHOTS</c> to a
/// folder to also write what chromium drew.
/// </summary>
public abstract class DashboardBrowserTests
{
    private const string Failing = "Test.Budget0.BytesPerOp";
    private const string Passing = "Test.Budget1.BytesPerOp";

    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    [Fact]
    public async Task The_project_page_and_the_budget_page_render_in_chromium_with_rows_chart_and_the_failure_marked()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres, commitUrlTemplate: "https://git.example/commit/{commit}");
        await ResultsServerReadApiTests.UploadAsync(server, "c1", measured: 120);
        await ResultsServerReadApiTests.UploadAsync(server, "c2", measured: 121);
        await ResultsServerReadApiTests.UploadAsync(server, "c3", measured: 119, limit: 150);
        await ResultsServerReadApiTests.UploadAsync(server, "f1", measured: 90, branch: "feature");
        await ResultsServerReadApiTests.UploadAsync(server, "c4", measured: 122, limit: 150, runtime: ".NET 10.0.14");
        await ResultsServerReadApiTests.UploadAsync(server, "c5", measured: 180, limit: 150, verdict: "fail", runtime: ".NET 10.0.14");
        var projectUrl = new Uri(server.Server.Address, $"projects/{RunningResultsServer.Project}?branch=main");
        var budgetUrl = new Uri(server.Server.Address, $"projects/{RunningResultsServer.Project}/budgets/{Failing}?branch=main");

        // Both pages at once: two browsers on two cores take about the time of one.
        var pages = await Task.WhenAll(HeadlessChromium.DumpDomAsync(projectUrl), HeadlessChromium.DumpDomAsync(budgetUrl));
        var (project, budget) = (pages[0], pages[1]);
        await ScreenshotsIfAskedAsync(projectUrl, budgetUrl);

        var rows = Matches(project, """<tr class="budget( failed)?" data-budget="([^"]+)">(.*?)</tr>""");
        rows.Select(r => r.Groups[2].Value).Should().Equal(Failing, Passing);
        rows[0].Groups[1].Value.Should().Be(" failed");
        rows[0].Groups[3].Value.Should().Contain("FAILED").And.Contain(">180<").And.Contain(">150<");
        rows[1].Groups[1].Value.Should().BeEmpty();
        rows[1].Groups[3].Value.Should().NotContain("FAILED");
        project.Should().Contain("FAILED: 1 of 2 budgets").And.Contain("href=\"https://git.example/commit/c5\"");

        var chart = Regex.Match(budget, """<svg class="series".*?</svg>""", RegexOptions.Singleline);
        chart.Success.Should().BeTrue("the budget page has its chart: {0}", budget);
        var points = Matches(chart.Value, """<circle class="point( failed)?"[^>]*data-commit="([^"]+)">""");
        points.Select(p => p.Groups[2].Value).Should().Equal("c1", "c2", "c3", "c4", "c5");
        points.Select(p => p.Groups[1].Value).Should().Equal("", "", "", "", " failed");
        Matches(chart.Value, """<path class="limit" """).Should().HaveCount(1);
        Matches(chart.Value, """<line class="re-recording" """).Should().HaveCount(1);
        Matches(chart.Value, """<line class="runtime-change" """).Should().HaveCount(1);
        Matches(chart.Value, """<polyline class="figure" """).Should().HaveCount(1);
        var failedRuns = Regex.Match(budget, """<table class="failed-runs">.*?</table>""", RegexOptions.Singleline).Value;
        Matches(failedRuns, """<tr class="run failed""").Should().HaveCount(1);
        failedRuns.Should().Contain("https://git.example/commit/c5");
        Matches(budget, """<table class="runs">.*?</table>""").Should().HaveCount(1);
        budget.Should().NotContain("f1", "the page shows branch main only");
    }

    private static List<Match> Matches(string html, string pattern) =>
        Regex.Matches(html, pattern, RegexOptions.Singleline).ToList();

    private static async Task ScreenshotsIfAskedAsync(Uri project, Uri budget)
    {
        if (Environment.GetEnvironmentVariable("PERF_DASHBOARD_SCREENSHOTS") is { Length: > 0 } folder)
        {
            Directory.CreateDirectory(folder);
            await HeadlessChromium.ScreenshotAsync(project, Path.GetFullPath(Path.Combine(folder, "dashboard-project.png")), height: 420);
            await HeadlessChromium.ScreenshotAsync(budget, Path.GetFullPath(Path.Combine(folder, "dashboard-budget.png")), height: 1100);
        }
    }
}

/// <summary>The dashboard in chromium, over SQLite.</summary>
public sealed class DashboardBrowserTestsOnSqlite : DashboardBrowserTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>The dashboard in chromium, over PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class DashboardBrowserTestsOnPostgres(PostgresCluster cluster) : DashboardBrowserTests
{
    protected override PostgresCluster? Postgres => cluster;
}
