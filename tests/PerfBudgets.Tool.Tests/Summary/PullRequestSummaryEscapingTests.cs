using PerfBudgets.Reporting;
using PerfBudgets.Tool.ResultsClient;
using PerfBudgets.Tool.Summary;

namespace PerfBudgets.Tool.Tests.Summary;

/// <summary>What a results server answers (budget names, units, commits) reaches a pull request's markdown inert.</summary>
public sealed class PullRequestSummaryEscapingTests
{
    [Fact]
    public void Names_the_server_answers_cannot_add_html_links_emphasis_table_cells_or_lines_to_the_summary()
    {
        BudgetResult[] head = [new("Test.Budget0.BytesPerOp", "allocated-bytes-per-op", 120, 200, "B/op", BudgetVerdict.Pass, "ci",
            DateTimeOffset.Parse("2026-11-24T20:00:00+00:00", System.Globalization.CultureInfo.InvariantCulture), MachineInfo.Current, null)];
        var hostile = new ReportedChange("<img src=x onerror=alert(1)>|[click](https://evil.example)**", "p99-ms-max", "ms\n# Owned",
            "abc`\n## injected", 1, 2, 1, 3, RuntimeChanged: false);
        var baseline = new BaselineAnswer("b1", "a1`<script>", null);

        var markdown = PullRequestSummary.Render(head, baseline, null, null, [hostile], "main|x", 10, 10);

        markdown.Should().NotContain("<img").And.NotContain("<script").And.NotContain("[click](");
        // The "://" carries a zero-width space, so that the bare URL is not linked either.
        markdown.Should().Contain("&lt;img src=x onerror=alert(1)&gt;\\|\\[click\\](https:\u200B//evil.example)\\*\\*");
        markdown.Should().Contain(@"from abc\` \#\# injected on");
        markdown.Split('\n').Should().NotContain(line => line.StartsWith('#') && line.Contains("Owned", StringComparison.Ordinal));
        markdown.Should().Contain(@"### Change points on main\|x");
    }

    [Fact]
    public void Plain_names_and_commit_ids_read_as_before()
    {
        MarkdownText.Text("HPack.Decode.TypicalRequest.BytesPerOp").Should().Be("HPack.Decode.TypicalRequest.BytesPerOp");
        MarkdownText.Text("B/op").Should().Be("B/op");
    }
}
