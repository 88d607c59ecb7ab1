using System.Text.Json.Nodes;
using Markdig;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tool.ResultsClient;
using PerfBudgets.Tool.Summary;

namespace PerfBudgets.Tool.Tests.Summary;

/// <summary>
/// Every field the pull-request summary prints from either run (budget names, units, details, an attribution's method
/// names, units, summary and change) renders as the characters it is: rendered as CommonMark (Markdig, with GitHub's
/// pipe tables), an injected link, image, heading or <c>&lt;img&gt;</c> comes out as text, not as an element.
/// </summary>
public sealed class PullRequestSummaryInjectionTests
{
    // Each a way to make markdown into something else: a link, an image, raw HTML, a heading on a line of its own, a
    // list item, a code span's end, emphasis.
    private const string Hostile = "[click](https://evil.example) ![pixel](https://evil.example/p.png) <img src=x onerror=alert(1)>\n# Owned `x` **bold**";

    [Fact]
    public void Fields_of_the_base_and_the_head_run_render_as_text()
    {
        // A method name without a backtick stays a code span, in which nothing renders but the text.
        var baseRun = Run(measured: 100, attribution: new Attribution($"base {Hostile}", [new AttributionEntry($"Base.Method {Hostile}", 60, $"instr {Hostile}", 0.6),
            new AttributionEntry("Generic<img src=x>.Method|[x](y)", 5, "instr", 0.05)],
            Change: $"base change {Hostile}"));
        // The head fails, so its attribution's summary is printed too; only the head's change is.
        var head = Run(measured: 2000, verdict: BudgetVerdict.Fail, attribution: new Attribution($"head summary {Hostile}", [new AttributionEntry($"Head.Method {Hostile}", 150, $"instr {Hostile}", 0.75)],
            Change: $"head change {Hostile}"));
        var notMeasured = Run(measured: double.NaN, budget: $"Skipped {Hostile}", verdict: BudgetVerdict.NotMeasured) with { Detail = $"why {Hostile}" };

        var markdown = PullRequestSummary.Render([head, notMeasured], new BaselineAnswer("b1", "b1", "{}"),
            PullRequestSummary.ByName([baseRun]), null, [], "main", 10, 10);
        var html = Markdown.ToHtml(markdown, new MarkdownPipelineBuilder().UsePipeTables().Build());

        // The summary's own headings are h2 and h3; nothing a run wrote adds an element.
        html.Should().NotContain("<a ").And.NotContain("<img").And.NotContain("<h1").And.NotContain("<code>x</code>").And.NotContain("<strong>bold");
        // The URL's "://" carries a zero-width space, which GitHub's autolinker does not match (below).
        html.Should().Contain("&lt;img src=x onerror=alert(1)&gt;").And.Contain("[click](https:\u200B//evil.example)").And.Contain("# Owned `x` **bold**");
        // Markdig keeps the pipe's backslash inside a code span; GitHub drops it.
        html.Should().Contain("<code>Generic&lt;img src=x&gt;.Method\\|[x](y)</code>");
        markdown.Split('\n').Should().NotContain(line => line.StartsWith("# Owned", StringComparison.Ordinal));
        foreach (var field in new[] { "Budget.Instructions", "Base.Method", "Head.Method", "head change", "head summary", "Skipped", "why " })
        {
            html.Should().Contain(field, "each field is printed, as text");
        }
    }

    [Fact]
    public void A_field_that_starts_a_line_cannot_start_a_list_or_a_heading_underline()
    {
        MarkdownText.Text("- item").Should().Be("\\- item");
        MarkdownText.Text("=====").Should().Be("\\=====");
        MarkdownText.Text("a-b").Should().Be("a-b");
    }

    [Fact]
    public void Bare_links_math_mentions_and_bidirectional_controls_from_data_render_as_text()
    {
        const string Sneaky = "see https://evil.example/x and www.evil.example, mail me@evil.example, $x^2$ and $$y$$, cc @octocat @org/team, \u202Egnp.exe";
        var head = Run(measured: 100, budget: $"Budget {Sneaky}");
        var notMeasured = Run(measured: double.NaN, budget: "Skipped", verdict: BudgetVerdict.NotMeasured) with { Detail = $"why {Sneaky}" };

        var markdown = PullRequestSummary.Render([head, notMeasured], new BaselineAnswer("b1", "b1", "{}"), PullRequestSummary.ByName([head]), null, [], "main", 10, 10);
        // GitHub's autolinks (bare URLs, www., e-mail) and its math, as Markdig has them.
        var html = Markdown.ToHtml(markdown, new MarkdownPipelineBuilder().UsePipeTables().UseAutoLinks().UseMathematics().Build());

        html.Should().NotContain("<a ").And.NotContain("math").And.NotContain("href");
        markdown.Should().NotContain("@octocat").And.NotContain("@org").And.NotContain("\u202E").And.NotContain("https://").And.NotContain("www.");
        markdown.Should().Contain("\\[U+202E\\]gnp.exe").And.Contain("\\$x^2\\$");
    }

    [Fact]
    public void A_long_detail_is_cut_in_the_summary()
    {
        var notMeasured = Run(measured: double.NaN, budget: "Skipped", verdict: BudgetVerdict.NotMeasured) with { Detail = new string('d', 7_000_000) };

        var markdown = PullRequestSummary.Render([notMeasured], new BaselineAnswer("b1", "b1", "{}"), PullRequestSummary.ByName([]), null, [], "main", 10, 10);

        markdown.Length.Should().BeLessThan(10_000);
        markdown.Should().Contain("… (7,000,000 characters)");
    }

    private static BudgetResult Run(double measured, Attribution? attribution = null, string budget = $"Budget.Instructions {Hostile}",
        BudgetVerdict verdict = BudgetVerdict.Pass)
    {
        var entry = new JsonObject
        {
            ["budget"] = "placeholder", ["kind"] = "instructions-max", ["measured"] = 1, ["limit"] = 1000, ["unit"] = "instructions",
            ["verdict"] = "pass", ["profile"] = "ci", ["timestampUtc"] = "2026-11-24T20:00:00+00:00",
            ["machine"] = new JsonObject
            {
                ["logicalCores"] = 2, ["operatingSystem"] = "Linux", ["architecture"] = "X64",
                ["runtime"] = ".NET 10.0.12", ["gcMode"] = "workstation", ["concurrentGc"] = true,
            },
            ["detail"] = null,
        };
        var parsed = ResultStore.Parse(new JsonObject { ["results"] = new JsonArray(entry) }.ToJsonString())[0];
        return parsed with { Budget = budget, Measured = measured, Verdict = verdict, Unit = $"instructions {Hostile}", Attribution = attribution };
    }
}
