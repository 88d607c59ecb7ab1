using System.Net;
using System.Text.RegularExpressions;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary>A budget page shows a page of runs (<c>RunsPerPage</c>, the newest first), the older ones a link away.</summary>
public sealed partial class BudgetPagePagingTests
{
    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task The_page_holds_the_newest_runs_and_links_to_the_older_ones_which_link_back()
    {
        await using var server = await RunningResultsServer.StartAsync(configure: o => o with { RunsPerPage = 3 });
        for (var i = 1; i <= 5; i++)
        {
            await ResultsServerReadApiTests.UploadAsync(server, $"a{i}", measured: 100 + i);
        }

        var page = $"projects/{RunningResultsServer.Project}/budgets/Test.Budget0.BytesPerOp";
        var newest = await server.Http.GetStringAsync(page, Cancellation);
        var older = OlderLink().Match(newest).Groups[1].Value.Replace("&amp;", "&", StringComparison.Ordinal);
        var oldest = await server.Http.GetStringAsync(older, Cancellation);
        using var bad = await server.Http.GetAsync(page + "?before=x", Cancellation);

        RunRows(newest).Should().Equal("5", "4", "3");
        newest.Should().Contain("3 runs shown of more.").And.Contain("Shown: runs 3 to 5 (3).").And.NotContain("class=\"newest\"");
        older.Should().EndWith("?branch=main&before=3");
        RunRows(oldest).Should().Equal("2", "1");
        oldest.Should().Contain("class=\"newest\"").And.NotContain("class=\"older\"");
        bad.StatusCode.Should().Be(HttpStatusCode.BadRequest);
    }

    // The run ids of the "Every run" table, as listed (newest first).
    private static List<string> RunRows(string html) =>
        RunRow().Matches(html[html.IndexOf("<table class=\"runs\"", StringComparison.Ordinal)..]).Select(m => m.Groups[1].Value).ToList();

    [GeneratedRegex("<a class=\"older\" href=\"([^\"]+)\"")]
    private static partial Regex OlderLink();

    [GeneratedRegex("<tr class=\"run[^\"]*\"><td class=\"number\">([0-9]+)</td>")]
    private static partial Regex RunRow();
}
