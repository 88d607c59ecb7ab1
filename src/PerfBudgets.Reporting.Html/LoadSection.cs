using System.Globalization;
using System.Text;
using OxyPlot;
using OxyPlot.Annotations;
using OxyPlot.Axes;
using OxyPlot.Series;
using PerfBudgets.Load;
using static System.Net.WebUtility;

namespace PerfBudgets.Reporting.Html;

/// <summary>
/// The report's load scenarios: what each run achieved (rate, requests, status codes, bytes, errors), its latency
/// percentiles and its requests per second over the measured window.
/// </summary>
internal static class LoadSection
{
    /// <summary>Appends the section, when there are load runs: each scenario's figures, errors, percentiles and rate.</summary>
    public static void Append(StringBuilder html, IReadOnlyList<LoadResult> loads)
    {
        if (loads.Count == 0)
        {
            return;
        }

        html.Append("<h2>Load scenarios</h2>\n");
        foreach (var load in loads.OrderBy(l => l.Scenario, StringComparer.Ordinal))
        {
            var target = load.TargetRate is { } t ? $", target {Figures.Format(t)} req/s" : string.Empty;
            html.Append(CultureInfo.InvariantCulture, $"<h3>{HtmlEncode(load.Scenario)}</h3>\n<p class=\"meta\">{HtmlEncode(string.IsNullOrEmpty(load.Model) ? "model not stated" : load.Model)} model{target}, achieved {Figures.Format(load.RequestsPerSecond)} req/s over {Figures.Format(load.MeasuredSeconds)} s: {load.Requests:N0} requests, {load.Completed:N0} ok, <span class=\"{(load.Failed > 0 ? "fail" : string.Empty)}\">{load.Failed:N0} failed</span>, {load.NotSent:N0} not sent; {load.BytesSent:N0} B sent, {load.BytesReceived:N0} B received");
            if (load.StatusCodes is { Count: > 0 } codes)
            {
                html.Append("; status ").Append(HtmlEncode(string.Join(", ", codes.OrderBy(c => c.Key).Select(c => string.Create(CultureInfo.InvariantCulture, $"{c.Key}: {c.Value:N0}")))));
            }

            html.Append(".</p>\n");
            if (load.Errors is { Count: > 0 } errors)
            {
                html.Append("<table><tr><th>Error</th><th>Count</th></tr>\n");
                foreach (var e in errors.OrderByDescending(e => e.Value))
                {
                    html.Append(CultureInfo.InvariantCulture, $"<tr><td>{HtmlEncode(e.Key)}</td><td class=\"n\">{e.Value:N0}</td></tr>\n");
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
        var model = SvgChart.NewModel("latency percentiles (ms)");
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
        return SvgChart.Export(model, 400, 230);
    }

    private static string RateChart(LoadResult load, IReadOnlyList<double> rps)
    {
        var model = SvgChart.NewModel("requests per second (req/s), 1-second buckets of the measured window");
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

        model.PlotMargins = new OxyThickness(SvgChart.LeftAxisMargin, double.NaN, double.NaN, double.NaN);
        return SvgChart.Export(model, 820, 230);
    }
}
