using System.Text.RegularExpressions;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Html;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Reporting.Html.Tests;

public sealed partial class HtmlReportTests : IDisposable
{
    // A load scenario in the shape results.json carries it (the top-level "loads" array).
    private const string Loads = """
        , "loads": [ { "scenario": "Json.Endpoint.Employees9.Open", "model": "open", "targetRate": 2000.0, "achievedRate": 1998.5,
          "measuredSeconds": 3.0, "requests": 5996, "ok": 5995, "failed": 1, "notSent": 0,
          "latencyMs": { "p50": 0.8, "p75": 1.0, "p90": 1.3, "p95": 1.6, "p99": 3.2, "max": 14.0 },
          "rpsPerSecond": [1999.0, 2001.0, 1996.0], "statusCodes": { "200": 5995 }, "bytesSent": 123, "bytesReceived": 456,
          "errors": { "HttpRequestException: connection reset": 1 }, "timestampUtc": "2026-11-20T10:00:00Z" },
          { "model": "closed" } ] }
        """;

    private readonly TestBudgets _budgets = new("html-report");
    private readonly BudgetGate _gate;

    public HtmlReportTests()
    {
        _gate = _budgets.Gate();
        _gate.Check("Api.Endpoint.BytesPerRequest", 60);
        _gate.Check("Api.Endpoint.RequestsPerSecond", 4000);
        _gate.Invoking(g => g.Check("HPack.Decode.CpuCost", 2.5)).Should().Throw<BudgetExceededException>();
        _gate.Check("HPack.Decode.BytesPerOp", 0);
        _gate.Check("Json.Pool.Leak.Outstanding", 0);
        _gate.Observe("Json.RoundTrip.ExtraBytesPerOp", 536, "B/op");
    }

    public void Dispose() => _budgets.Dispose();

    [Fact]
    public void The_report_is_one_self_contained_file_with_inline_svg()
    {
        var html = System.IO.File.ReadAllText(HtmlReport.Write(_budgets.Folder));

        html.Should().StartWith("<!DOCTYPE html>");
        html.Should().Contain("<svg");
        html.Should().NotContain("<script", "the report runs no script, fetched or inline");
        SourceAttribute().Matches(html).Should().BeEmpty("nothing is fetched from anywhere");
        html.Should().NotContain("<?xml", "the SVG header is stripped for inline use");
    }

    [Fact]
    public void Every_budget_has_one_bar_in_its_components_chart_coloured_by_its_verdict()
    {
        var html = System.IO.File.ReadAllText(HtmlReport.Write(_budgets.Folder));

        var bars = BarCharts().Matches(html).ToDictionary(m => m.Groups["component"].Value, m => m.Groups["svg"].Value);
        bars.Keys.Should().BeEquivalentTo(["Api", "HPack", "Json"]);
        string Fill(BudgetVerdict v) { var c = VerdictStyle.Color(v); return $"fill:rgb({c.R},{c.G},{c.B})"; }
        int Count(string svg, BudgetVerdict v) => Regex.Count(svg, $@"<rect [^>]*{Regex.Escape(Fill(v))}");
        (Count(bars["Api"], BudgetVerdict.Pass), Count(bars["Api"], BudgetVerdict.Fail)).Should().Be((2, 0));
        (Count(bars["HPack"], BudgetVerdict.Pass), Count(bars["HPack"], BudgetVerdict.Fail)).Should().Be((1, 1));
        (Count(bars["Json"], BudgetVerdict.Pass), Count(bars["Json"], BudgetVerdict.Fail)).Should().Be((1, 0));
        html.Should().Contain("Json.RoundTrip.ExtraBytesPerOp", "an informational figure is listed, without a bar");
    }

    [Fact]
    public void Bars_put_the_limit_at_100_percent_in_both_directions()
    {
        var results = ResultStore.ReadAll(_gate.Store.ResultsPath).ToDictionary(r => r.Budget);

        BudgetSection.PercentOfLimit(results["Api.Endpoint.BytesPerRequest"]).Should().Be(60);
        BudgetSection.PercentOfLimit(results["Api.Endpoint.RequestsPerSecond"]).Should().Be(25);
        BudgetSection.PercentOfLimit(results["HPack.Decode.CpuCost"]).Should().Be(125);
        BudgetSection.PercentOfLimit(results["HPack.Decode.BytesPerOp"]).Should().Be(0);
        BudgetSection.PercentOfLimit(results["Json.RoundTrip.ExtraBytesPerOp"]).Should().BeNull();
    }

    [Fact]
    public void History_gets_one_chart_per_budget_over_the_recorded_runs()
    {
        var html = System.IO.File.ReadAllText(HtmlReport.Write(_budgets.Folder));

        html.Should().Contain("1 run recorded in history.jsonl");
        HistoryCharts().Matches(html).Select(m => m.Groups[1].Value).Should().BeEquivalentTo(
            ["Api.Endpoint.BytesPerRequest", "Api.Endpoint.RequestsPerSecond", "HPack.Decode.CpuCost", "HPack.Decode.BytesPerOp", "Json.Pool.Leak.Outstanding"]);
    }

    [Fact]
    public void A_load_scenario_gets_its_percentiles_and_rate_charts_and_an_unreadable_one_is_reported()
    {
        var text = System.IO.File.ReadAllText(_gate.Store.ResultsPath).TrimEnd();
        System.IO.File.WriteAllText(_gate.Store.ResultsPath, text[..^1] + Loads);

        var html = System.IO.File.ReadAllText(HtmlReport.Write(_budgets.Folder));

        html.Should().Contain("<h3>Json.Endpoint.Employees9.Open</h3>");
        html.Should().Contain("open model, target 2,000 req/s, achieved 1,999 req/s over 3 s");
        html.Should().Contain("HttpRequestException: connection reset");
        Regex.Count(html, "<figure class=\"latency\"><svg").Should().Be(1);
        Regex.Count(html, "<figure class=\"rps\"><svg").Should().Be(1);
        html.Should().Contain("1 entries of &#39;loads&#39; in results.json could not be read");
    }

    [Fact]
    public void Without_loads_there_is_no_load_section()
    {
        HtmlReport.Write(_budgets.Folder);

        System.IO.File.ReadAllText(Path.Combine(_budgets.Folder, HtmlReport.FileName)).Should().NotContain("Load scenarios");
    }

    [Fact]
    public void Without_results_the_report_says_so()
    {
        var empty = Path.Combine(_budgets.Folder, "empty");

        var act = () => HtmlReport.Write(empty);

        act.Should().Throw<FileNotFoundException>().WithMessage("*results.json: run the budget suites first.");
    }

    [GeneratedRegex(@"\bsrc\s*=\s*[""']?\s*(https?:|//)", RegexOptions.IgnoreCase)]
    private static partial Regex SourceAttribute();

    [GeneratedRegex(@"<figure class=""bars"" data-component=""(?<component>[^""]+)"">(?<svg>.*?)</figure>", RegexOptions.Singleline)]
    private static partial Regex BarCharts();

    [GeneratedRegex(@"<figure class=""history"" data-budget=""([^""]+)"">")]
    private static partial Regex HistoryCharts();
}
