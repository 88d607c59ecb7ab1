using System.Globalization;
using System.Text;
using OxyPlot;
using OxyPlot.Axes;
using OxyPlot.Series;
using PerfBudgets.Reporting.Storage;
using static System.Net.WebUtility;

namespace PerfBudgets.Reporting.Html;

/// <summary>
/// The report's history: each budget's measured figure over the recorded runs, oldest first, with the limit in force
/// at each and every point coloured by its verdict.
/// </summary>
internal static class HistorySection
{
    /// <summary>Appends the section: one chart per budget over the runs of history.jsonl, or a line saying there are none.</summary>
    public static void Append(StringBuilder html, IReadOnlyList<HistoryEntry> history)
    {
        html.Append("<h2>History</h2>\n");
        var runs = history.GroupBy(h => h.RunId).Select(g => (Run: g.Key, Start: g.Min(h => h.TimestampUtc))).OrderBy(r => r.Start).ToList();
        if (runs.Count == 0)
        {
            html.Append("<p class=\"meta\">No history.jsonl yet: every run of the suites appends to it.</p>\n");
            return;
        }

        var index = runs.Select((r, i) => (r.Run, i)).ToDictionary(x => x.Run, x => x.i + 1, StringComparer.Ordinal);
        var span = runs.Count == 1 ? $"1 run recorded in history.jsonl ({HtmlEncode(runs[0].Run)})" : $"{runs.Count} runs recorded in history.jsonl, oldest first (run 1: {HtmlEncode(runs[0].Run)}, run {runs.Count}: {HtmlEncode(runs[^1].Run)})";
        html.Append(CultureInfo.InvariantCulture, $"<p class=\"meta\">{span}; the line is the measured figure, the dashed red line the limit in force; points are coloured by verdict.</p>\n<div class=\"grid\">\n");
        foreach (var budget in history.Where(h => h.Limit is not null).GroupBy(h => h.Budget).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            // The last figure of a budget in each run (a run may record a budget more than once).
            var points = budget.GroupBy(h => h.RunId).Select(g => g.OrderBy(h => h.TimestampUtc).Last()).OrderBy(h => index[h.RunId]).ToList();
            var last = points[^1];
            var model = SvgChart.NewModel($"{budget.Key} ({last.Unit})");
            model.TitleFontSize = 11;
            model.Axes.Add(new LinearAxis { Position = AxisPosition.Bottom, Minimum = 0.5, Maximum = runs.Count + 0.5, MajorStep = Math.Max(1, Math.Ceiling(runs.Count / 8.0)), MinorStep = 1, Title = "run", FontSize = 10, StringFormat = "0" });
            model.Axes.Add(new LinearAxis { Position = AxisPosition.Left, FontSize = 10, MajorGridlineStyle = LineStyle.Dot, MinimumPadding = 0.1, MaximumPadding = 0.15 });
            var limit = new LineSeries { Color = VerdictStyle.Color(BudgetVerdict.Fail), LineStyle = LineStyle.Dash, StrokeThickness = 1.2 };
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
                verdicts.AddRange((int)v - 0.5, (int)v + 0.5, VerdictStyle.Color(v));
            }

            marks.ColorAxisKey = "verdicts";
            model.PlotMargins = new OxyThickness(SvgChart.LeftAxisMargin, double.NaN, double.NaN, double.NaN);
            model.Series.Add(limit);
            model.Series.Add(measured);
            model.Series.Add(marks);
            html.Append(CultureInfo.InvariantCulture, $"<figure class=\"history\" data-budget=\"{HtmlEncode(budget.Key)}\">").Append(SvgChart.Export(model, 400, 190)).Append("</figure>\n");
        }

        html.Append("</div>\n");
    }
}
