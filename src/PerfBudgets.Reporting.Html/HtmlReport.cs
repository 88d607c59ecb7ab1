using System.Globalization;
using System.Net;
using System.Text;
using OxyPlot;
using OxyPlot.Annotations;
using OxyPlot.Axes;
using OxyPlot.Series;
using PerfBudgets.Budgets;
using PerfBudgets.Load;
using PerfBudgets.Reporting.Exporters;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Reporting.Html;

/// <summary>
/// Renders <c>report.html</c>: one self-contained file (inline SVG drawn with OxyPlot's managed SvgExporter, inline CSS,
/// no script, nothing fetched) with every budget as a bar against its limit grouped by component, each budget's history
/// over the recorded runs with its limit, and each load scenario's latency percentiles and requests per second.
/// </summary>
public static class HtmlReport
{
    /// <summary>The file name written beside <c>results.json</c>.</summary>
    public const string FileName = "report.html";

    /// <summary>Bars are drawn up to this share of the limit; a longer one is cut there and says so in its label.</summary>
    internal const double BarAxisMaximumPercent = 150;

    private const int ChartWidth = 1240;

    // Room for a left axis's tick labels: OxyPlot measures text narrower than a browser draws it (and so would put an
    // axis title over them, which is why the units are in the chart titles).
    private const double LeftAxisMargin = 78;

    private static int _charts;

    /// <summary>Colour of a verdict, the same in every chart and table.</summary>
    internal static OxyColor VerdictColor(BudgetVerdict verdict) => verdict switch
    {
        BudgetVerdict.Pass => OxyColor.FromRgb(0x2e, 0x7d, 0x32),
        BudgetVerdict.Warn => OxyColor.FromRgb(0xef, 0x9a, 0x00),
        BudgetVerdict.Fail => OxyColor.FromRgb(0xc6, 0x28, 0x28),
        _ => OxyColor.FromRgb(0x78, 0x90, 0x9c),
    };

    /// <summary>
    /// Reads <c>results.json</c> and <c>history.jsonl</c> in <paramref name="directory"/> and writes <c>report.html</c>
    /// there (<see cref="HtmlReportExporter"/>); returns its path. Throws <see cref="FileNotFoundException"/> when there
    /// is no results.json.
    /// </summary>
    public static string Write(string directory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        var store = new ResultStore(directory);
        if (!File.Exists(store.ResultsPath))
        {
            throw new FileNotFoundException($"No {store.ResultsPath}: run the budget suites first.", store.ResultsPath);
        }

        IRunExporter report = new HtmlReportExporter(DateTimeOffset.UtcNow);
        return report.Export(RunResults.Read(store), ExportTarget.InFolder(store.Directory, FileName));
    }

    /// <summary>The whole page.</summary>
    internal static string Render(
        IReadOnlyList<BudgetResult> results,
        IReadOnlyList<LoadResult> loads,
        IReadOnlyList<HistoryEntry> history,
        DateTimeOffset generatedUtc,
        IReadOnlyList<string>? notes = null)
    {
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(loads);
        ArgumentNullException.ThrowIfNull(history);
        var html = new StringBuilder();
        html.Append("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Performance budgets</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 24px; color: #222; max-width: 1300px; }
            h1 { margin-bottom: 4px; } h2 { margin-top: 32px; border-bottom: 1px solid #ccc; } h3 { margin: 20px 0 4px; }
            .meta { color: #555; } .legend span { display: inline-block; margin-right: 14px; }
            .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
            .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(400px, 1fr)); gap: 8px; }
            .pair { display: grid; grid-template-columns: 1fr 2fr; gap: 8px; }
            table { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
            td, th { border: 1px solid #ddd; padding: 3px 8px; } td.n { text-align: right; }
            .fail { color: #c62828; font-weight: bold; } .warn { color: #b26a00; font-weight: bold; }
            figure { margin: 0; } .note { color: #8a4b00; } summary { cursor: pointer; color: #555; font-size: 13px; }
            </style></head><body>
            <h1>Performance budgets</h1>

            """);
        var first = results.FirstOrDefault();
        html.Append(CultureInfo.InvariantCulture, $"<p class=\"meta\">{results.Count(r => r.Limit is not null)} budgets, {results.Count(r => r.Limit is null)} informational figures");
        if (first is not null)
        {
            html.Append(CultureInfo.InvariantCulture, $"; profile {Encode(first.Profile)}; {first.Machine.LogicalCores} cores, {Encode(first.Machine.OperatingSystem)}, {Encode(first.Machine.Runtime)}");
        }

        html.Append(CultureInfo.InvariantCulture, $"; generated {generatedUtc:yyyy-MM-dd HH:mm:ss} UTC.</p>\n");
        var counts = string.Join(", ", Enum.GetValues<BudgetVerdict>().Select(v => (v, n: results.Count(r => r.Verdict == v))).Where(c => c.n > 0).Select(c => $"{c.n} {Name(c.v)}"));
        html.Append(CultureInfo.InvariantCulture, $"<p class=\"legend\">{Encode(counts)}. ");
        foreach (var verdict in new[] { BudgetVerdict.Pass, BudgetVerdict.Warn, BudgetVerdict.Fail, BudgetVerdict.Info })
        {
            html.Append(CultureInfo.InvariantCulture, $"<span><span class=\"swatch\" style=\"background:{Css(VerdictColor(verdict))}\"></span>{Name(verdict)}</span>");
        }

        html.Append("</p>\n");
        foreach (var note in notes ?? [])
        {
            html.Append(CultureInfo.InvariantCulture, $"<p class=\"note\">{Encode(note)}</p>\n");
        }

        AppendBudgets(html, results);
        AppendHistory(html, history);
        AppendLoads(html, loads);
        html.Append("</body></html>\n");
        return html.ToString();
    }

    /// <summary>Measured ÷ limit (at-most kinds) or limit ÷ measured (at-least kinds) in %, so the limit is at 100%; null for an informational figure.</summary>
    internal static double? PercentOfLimit(BudgetResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        if (result.Limit is not { } limit)
        {
            return null;
        }

        var atLeast = result.Direction == BudgetDirection.AtLeast;
        var (numerator, denominator) = atLeast ? (limit, result.Measured) : (result.Measured, limit);
        if (denominator == 0)
        {
            return numerator == 0 ? 0 : double.PositiveInfinity;
        }

        return numerator / denominator * 100;
    }

    /// <summary>The component a budget belongs to: the first dotted segment of its name.</summary>
    internal static string Component(string budget)
    {
        ArgumentNullException.ThrowIfNull(budget);
        var dot = budget.IndexOf('.', StringComparison.Ordinal);
        return dot > 0 ? budget[..dot] : budget;
    }

    private static void AppendBudgets(StringBuilder html, IReadOnlyList<BudgetResult> results)
    {
        html.Append("<h2>Budgets against their limits</h2>\n<p class=\"meta\">Each bar is measured ÷ limit (limit ÷ measured for a floor), so the limit is the line at 100%; bars are cut at ")
            .Append(BarAxisMaximumPercent.ToString(CultureInfo.InvariantCulture)).Append("%.</p>\n");
        var withBaseline = results.Any(r => r.Baseline is not null);
        foreach (var group in results.GroupBy(r => Component(r.Budget)).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            html.Append(CultureInfo.InvariantCulture, $"<h3>{Encode(group.Key)}</h3>\n");
            var gated = group.Where(r => r.Limit is not null).OrderBy(r => r.Budget, StringComparer.Ordinal).ToList();
            if (gated.Count > 0)
            {
                html.Append(CultureInfo.InvariantCulture, $"<figure class=\"bars\" data-component=\"{Encode(group.Key)}\">").Append(BarChart(gated)).Append("</figure>\n");
            }

            // The bars carry each budget's figures; the table (with the informational figures) is folded away.
            var open = group.Any(r => r.Verdict is BudgetVerdict.Fail or BudgetVerdict.Warn) ? " open" : string.Empty;
            html.Append(CultureInfo.InvariantCulture, $"<details{open}><summary>{group.Count()} figures of {Encode(group.Key)}: measured, limit, verdict{(withBaseline ? ", baseline" : string.Empty)}</summary>\n");
            html.Append("<table><tr><th>Budget</th><th>Measured</th><th>Limit</th><th>Unit</th><th>Verdict</th>");
            if (withBaseline)
            {
                html.Append("<th>Baseline (change)</th>");
            }

            html.Append("</tr>\n");
            foreach (var r in group.OrderBy(r => r.Budget, StringComparer.Ordinal))
            {
                var limit = r.Limit is { } l ? $"{SummaryTable.Comparison(r)} {Figures.Format(l)}" : "—";
                html.Append(CultureInfo.InvariantCulture,
                    $"<tr><td>{Encode(r.Budget)}</td><td class=\"n\">{Figures.Format(r.Measured)}</td><td class=\"n\">{limit}</td><td>{Encode(r.Unit)}</td><td class=\"{Name(r.Verdict)}\">{Name(r.Verdict)}</td>");
                if (withBaseline)
                {
                    html.Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{Encode(r.Baseline?.DeltaCell() ?? "—")}</td>");
                }

                html.Append("</tr>\n");
            }

            html.Append("</table></details>\n");
        }
    }

    private static string BarChart(IReadOnlyList<BudgetResult> gated)
    {
        var model = NewModel(null);
        var categories = new CategoryAxis { Position = AxisPosition.Left, StartPosition = 1, EndPosition = 0, GapWidth = 0.35, FontSize = 12 };
        var values = new LinearAxis
        {
            Position = AxisPosition.Bottom, Minimum = 0, Maximum = BarAxisMaximumPercent, MajorStep = 25, MinorStep = 5,
            MajorGridlineStyle = LineStyle.Dot, Title = "% of limit", StringFormat = "0'%'",
        };
        var bars = new BarSeries { StrokeThickness = 0, LabelPlacement = LabelPlacement.Inside, TextColor = OxyColors.White, FontSize = 11 };
        foreach (var r in gated)
        {
            var percent = PercentOfLimit(r)!.Value;
            var cut = percent > BarAxisMaximumPercent || double.IsNaN(percent);
            var shown = double.IsNaN(percent) ? "NaN" : double.IsInfinity(percent) ? "∞" : $"{percent:0.#}%";
            var comparison = SummaryTable.Comparison(r);
            categories.Labels.Add($"{r.Budget[(Component(r.Budget).Length + 1)..]}   {Figures.Format(r.Measured)} {comparison} {Figures.Format(r.Limit!.Value)} {r.Unit}   {shown}{(cut ? " (cut)" : string.Empty)}");
            bars.Items.Add(new BarItem(cut ? BarAxisMaximumPercent : Math.Max(percent, 0)) { Color = VerdictColor(r.Verdict) });
        }

        model.Axes.Add(categories);
        model.Axes.Add(values);
        model.Series.Add(bars);
        model.Annotations.Add(new LineAnnotation { Type = LineAnnotationType.Vertical, X = 100, Color = OxyColors.Black, StrokeThickness = 1.5, LineStyle = LineStyle.Dash });

        // OxyPlot measures text with its own font metrics, narrower than a browser's: the label margin is set from the
        // longest label instead, so no budget name is cut off.
        model.PlotMargins = new OxyThickness(16 + (6.7 * categories.Labels.Max(l => l.Length)), double.NaN, double.NaN, double.NaN);
        return Svg(model, ChartWidth, 60 + (24 * gated.Count));
    }

    private static void AppendHistory(StringBuilder html, IReadOnlyList<HistoryEntry> history)
    {
        html.Append("<h2>History</h2>\n");
        var runs = history.GroupBy(h => h.RunId).Select(g => (Run: g.Key, Start: g.Min(h => h.TimestampUtc))).OrderBy(r => r.Start).ToList();
        if (runs.Count == 0)
        {
            html.Append("<p class=\"meta\">No history.jsonl yet: every run of the suites appends to it.</p>\n");
            return;
        }

        var index = runs.Select((r, i) => (r.Run, i)).ToDictionary(x => x.Run, x => x.i + 1, StringComparer.Ordinal);
        var span = runs.Count == 1 ? $"1 run recorded in history.jsonl ({Encode(runs[0].Run)})" : $"{runs.Count} runs recorded in history.jsonl, oldest first (run 1: {Encode(runs[0].Run)}, run {runs.Count}: {Encode(runs[^1].Run)})";
        html.Append(CultureInfo.InvariantCulture, $"<p class=\"meta\">{span}; the line is the measured figure, the dashed red line the limit in force; points are coloured by verdict.</p>\n<div class=\"grid\">\n");
        foreach (var budget in history.Where(h => h.Limit is not null).GroupBy(h => h.Budget).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            // The last figure of a budget in each run (a run may record a budget more than once).
            var points = budget.GroupBy(h => h.RunId).Select(g => g.OrderBy(h => h.TimestampUtc).Last()).OrderBy(h => index[h.RunId]).ToList();
            var last = points[^1];
            var model = NewModel($"{budget.Key} ({last.Unit})");
            model.TitleFontSize = 11;
            model.Axes.Add(new LinearAxis { Position = AxisPosition.Bottom, Minimum = 0.5, Maximum = runs.Count + 0.5, MajorStep = Math.Max(1, Math.Ceiling(runs.Count / 8.0)), MinorStep = 1, Title = "run", FontSize = 10, StringFormat = "0" });
            model.Axes.Add(new LinearAxis { Position = AxisPosition.Left, FontSize = 10, MajorGridlineStyle = LineStyle.Dot, MinimumPadding = 0.1, MaximumPadding = 0.15 });
            var limit = new LineSeries { Color = VerdictColor(BudgetVerdict.Fail), LineStyle = LineStyle.Dash, StrokeThickness = 1.2 };
            var measured = new LineSeries { Color = OxyColor.FromRgb(0x37, 0x47, 0x4f), StrokeThickness = 1.5 };
            var marks = new ScatterSeries { MarkerType = MarkerType.Circle, MarkerSize = 3.5 };
            foreach (var h in points)
            {
                var x = index[h.RunId];
                limit.Points.Add(new DataPoint(x - 0.5, h.Limit!.Value));
                limit.Points.Add(new DataPoint(x + 0.5, h.Limit!.Value));
                measured.Points.Add(new DataPoint(x, h.Measured));
                marks.Points.Add(new ScatterPoint(x, h.Measured) { Value = (int)h.Verdict });
            }

            model.Axes.Add(new RangeColorAxis { Position = AxisPosition.None, Key = "verdicts" });
            var verdicts = (RangeColorAxis)model.Axes[^1];
            foreach (var v in Enum.GetValues<BudgetVerdict>())
            {
                verdicts.AddRange((int)v - 0.5, (int)v + 0.5, VerdictColor(v));
            }

            marks.ColorAxisKey = "verdicts";
            model.PlotMargins = new OxyThickness(LeftAxisMargin, double.NaN, double.NaN, double.NaN);
            model.Series.Add(limit);
            model.Series.Add(measured);
            model.Series.Add(marks);
            html.Append(CultureInfo.InvariantCulture, $"<figure class=\"history\" data-budget=\"{Encode(budget.Key)}\">").Append(Svg(model, 400, 190)).Append("</figure>\n");
        }

        html.Append("</div>\n");
    }

    private static void AppendLoads(StringBuilder html, IReadOnlyList<LoadResult> loads)
    {
        if (loads.Count == 0)
        {
            return;
        }

        html.Append("<h2>Load scenarios</h2>\n");
        foreach (var load in loads.OrderBy(l => l.Scenario, StringComparer.Ordinal))
        {
            var target = load.TargetRate is { } t ? $", target {Figures.Format(t)} req/s" : string.Empty;
            html.Append(CultureInfo.InvariantCulture, $"<h3>{Encode(load.Scenario)}</h3>\n<p class=\"meta\">{Encode(string.IsNullOrEmpty(load.Model) ? "model not stated" : load.Model)} model{target}, achieved {Figures.Format(load.RequestsPerSecond)} req/s over {Figures.Format(load.MeasuredSeconds)} s: {load.Requests:N0} requests, {load.Completed:N0} ok, <span class=\"{(load.Failed > 0 ? "fail" : string.Empty)}\">{load.Failed:N0} failed</span>, {load.NotSent:N0} not sent; {load.BytesSent:N0} B sent, {load.BytesReceived:N0} B received");
            if (load.StatusCodes is { Count: > 0 } codes)
            {
                html.Append("; status ").Append(Encode(string.Join(", ", codes.OrderBy(c => c.Key).Select(c => string.Create(CultureInfo.InvariantCulture, $"{c.Key}: {c.Value:N0}")))));
            }

            html.Append(".</p>\n");
            if (load.Errors is { Count: > 0 } errors)
            {
                html.Append("<table><tr><th>Error</th><th>Count</th></tr>\n");
                foreach (var e in errors.OrderByDescending(e => e.Value))
                {
                    html.Append(CultureInfo.InvariantCulture, $"<tr><td>{Encode(e.Key)}</td><td class=\"n\">{e.Value:N0}</td></tr>\n");
                }

                html.Append("</table>\n");
            }

            html.Append("<div class=\"pair\">");
            // An entry written without its percentiles reads them as NaN: no chart rather than a chart of nothing.
            if (!double.IsNaN(load.P99Ms))
            {
                html.Append("<figure class=\"latency\">").Append(LatencyChart(load)).Append("</figure>");
            }

            if (load.RequestsPerSecondBuckets is { Count: > 0 } rps)
            {
                html.Append("<figure class=\"rps\">").Append(RateChart(load, rps)).Append("</figure>");
            }

            html.Append("</div>\n");
        }
    }

    private static string LatencyChart(LoadResult load)
    {
        var model = NewModel("latency percentiles (ms)");
        var categories = new CategoryAxis { Position = AxisPosition.Left, StartPosition = 1, EndPosition = 0, GapWidth = 0.3 };
        categories.Labels.AddRange(["p50", "p75", "p90", "p95", "p99", "max"]);
        model.Axes.Add(categories);
        model.Axes.Add(new LinearAxis { Position = AxisPosition.Bottom, Minimum = 0, MaximumPadding = 0.2, MajorGridlineStyle = LineStyle.Dot, Title = "ms" });
        var bars = new BarSeries { FillColor = OxyColor.FromRgb(0x1e, 0x60, 0x9a), LabelPlacement = LabelPlacement.Outside, LabelFormatString = "{0:0.##}", FontSize = 11 };
        foreach (var value in new[] { load.P50Ms, load.P75Ms, load.P90Ms, load.P95Ms, load.P99Ms, load.MaxMs })
        {
            bars.Items.Add(new BarItem(value));
        }

        model.Series.Add(bars);
        return Svg(model, 400, 230);
    }

    private static string RateChart(LoadResult load, IReadOnlyList<double> rps)
    {
        var model = NewModel("requests per second (req/s), 1-second buckets of the measured window");
        model.Axes.Add(new LinearAxis { Position = AxisPosition.Bottom, Minimum = 0, Maximum = rps.Count, Title = "second", MajorGridlineStyle = LineStyle.Dot });
        model.Axes.Add(new LinearAxis { Position = AxisPosition.Left, Minimum = 0, MaximumPadding = 0.15, MajorGridlineStyle = LineStyle.Dot, StringFormat = "#,0" });
        var series = new StairStepSeries { Color = OxyColor.FromRgb(0x1e, 0x60, 0x9a), StrokeThickness = 1.5, VerticalStrokeThickness = 0.8 };
        for (var i = 0; i < rps.Count; i++)
        {
            series.Points.Add(new DataPoint(i, rps[i]));
        }

        series.Points.Add(new DataPoint(rps.Count, rps[^1]));
        model.Series.Add(series);
        model.Annotations.Add(new LineAnnotation { Type = LineAnnotationType.Horizontal, Y = load.RequestsPerSecond, Color = OxyColors.Gray, LineStyle = LineStyle.Dot, Text = $"achieved {Figures.Format(load.RequestsPerSecond)}" });
        if (load.TargetRate is { } target)
        {
            model.Annotations.Add(new LineAnnotation { Type = LineAnnotationType.Horizontal, Y = target, Color = OxyColors.Black, LineStyle = LineStyle.Dash, Text = $"target {Figures.Format(target)}", TextLinePosition = 0, TextHorizontalAlignment = HorizontalAlignment.Left });
        }

        model.PlotMargins = new OxyThickness(LeftAxisMargin, double.NaN, double.NaN, double.NaN);
        return Svg(model, 820, 230);
    }

    private static PlotModel NewModel(string? title) => new()
    {
        Title = title,
        TitleFontSize = 12,
        TitleFontWeight = FontWeights.Normal,
        Background = OxyColors.White,
        DefaultFont = "sans-serif",
        PlotAreaBorderColor = OxyColor.FromRgb(0xbb, 0xbb, 0xbb),
    };

    private static string Svg(PlotModel model, double width, double height)
    {
        // Every exported SVG names its clip paths clipPath1, clipPath2, ...; inline in one page those ids would collide
        // and each chart would be clipped by the first chart's rectangles, so each chart gets its own.
        var prefix = "chart" + Interlocked.Increment(ref _charts).ToString(CultureInfo.InvariantCulture) + "-clip";
        var svg = SvgExporter.ExportToString(model, width, height, false).Replace("clipPath", prefix, StringComparison.Ordinal)
            .Replace("<" + prefix, "<clipPath", StringComparison.Ordinal).Replace("</" + prefix, "</clipPath", StringComparison.Ordinal);
        var start = svg.IndexOf("<svg", StringComparison.Ordinal);
        return start >= 0 ? svg[start..] : svg;
    }

    private static string Name(BudgetVerdict verdict) => verdict.ToString().ToLowerInvariant();

    private static string Css(OxyColor color) => $"#{color.R:x2}{color.G:x2}{color.B:x2}";

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
