using System.Globalization;
using System.Text;
using OxyPlot;
using OxyPlot.Annotations;
using OxyPlot.Axes;
using OxyPlot.Series;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting.Exporters;
using static System.Net.WebUtility;

namespace PerfBudgets.Reporting.Html;

/// <summary>
/// The report's first section: every budget as a bar of measured ÷ limit, grouped by component, with a table of the
/// figures (and the informational ones) under each chart.
/// </summary>
internal static class BudgetSection
{
    /// <summary>Bars are drawn up to this share of the limit; a longer one is cut there and says so in its label.</summary>
    internal const double AxisMaximumPercent = 150;

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

    /// <summary>Appends the section: a bar chart per component, then its table folded away.</summary>
    public static void Append(StringBuilder html, IReadOnlyList<BudgetResult> results)
    {
        html.Append("<h2>Budgets against their limits</h2>\n<p class=\"meta\">Each bar is measured ÷ limit (limit ÷ measured for a floor), so the limit is the line at 100%; bars are cut at ")
            .Append(AxisMaximumPercent.ToString(CultureInfo.InvariantCulture)).Append("%.</p>\n");
        var withBaseline = results.Any(r => r.Baseline is not null);
        foreach (var group in results.GroupBy(r => Component(r.Budget)).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            html.Append(CultureInfo.InvariantCulture, $"<h3>{HtmlEncode(group.Key)}</h3>\n");
            var gated = group.Where(r => r.Limit is not null).OrderBy(r => r.Budget, StringComparer.Ordinal).ToList();
            if (gated.Count > 0)
            {
                html.Append(CultureInfo.InvariantCulture, $"<figure class=\"bars\" data-component=\"{HtmlEncode(group.Key)}\">").Append(BarChart(gated)).Append("</figure>\n");
            }

            // The bars carry each budget's figures; the table (with the informational figures) is folded away.
            var open = group.Any(r => r.Verdict is BudgetVerdict.Fail or BudgetVerdict.Warn) ? " open" : string.Empty;
            html.Append(CultureInfo.InvariantCulture, $"<details{open}><summary>{group.Count()} figures of {HtmlEncode(group.Key)}: measured, limit, verdict{(withBaseline ? ", baseline" : string.Empty)}</summary>\n");
            html.Append("<table><tr><th>Budget</th><th>Measured</th><th>Limit</th><th>Unit</th><th>Verdict</th>");
            if (withBaseline)
            {
                html.Append("<th>Baseline (change)</th>");
            }

            html.Append("</tr>\n");
            foreach (var r in group.OrderBy(r => r.Budget, StringComparer.Ordinal))
            {
                var limit = r.Limit is { } l ? $"{r.ComparisonSign} {Figures.Format(l)}" : "—";
                html.Append(CultureInfo.InvariantCulture,
                    $"<tr><td>{HtmlEncode(r.Budget)}</td><td class=\"n\">{Figures.Format(r.Measured)}</td><td class=\"n\">{limit}</td><td>{HtmlEncode(r.Unit)}</td><td class=\"{VerdictStyle.Name(r.Verdict)}\">{VerdictStyle.Name(r.Verdict)}</td>");
                if (withBaseline)
                {
                    html.Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{HtmlEncode(r.Baseline?.DeltaCell() ?? "—")}</td>");
                }

                html.Append("</tr>\n");
            }

            html.Append("</table></details>\n");
        }
    }

    private static string BarChart(IReadOnlyList<BudgetResult> gated)
    {
        var model = SvgChart.NewModel(null);
        var categories = new CategoryAxis { Position = AxisPosition.Left, StartPosition = 1, EndPosition = 0, GapWidth = 0.35, FontSize = 12 };
        var values = new LinearAxis
        {
            Position = AxisPosition.Bottom, Minimum = 0, Maximum = AxisMaximumPercent, MajorStep = 25, MinorStep = 5,
            MajorGridlineStyle = LineStyle.Dot, Title = "% of limit", StringFormat = "0'%'",
        };
        var bars = new BarSeries { StrokeThickness = 0, LabelPlacement = LabelPlacement.Inside, TextColor = OxyColors.White, FontSize = 11 };
        foreach (var r in gated)
        {
            var percent = PercentOfLimit(r)!.Value;
            var cut = percent > AxisMaximumPercent || double.IsNaN(percent);
            var shown = double.IsNaN(percent) ? "NaN" : double.IsInfinity(percent) ? "∞" : $"{percent:0.#}%";
            var comparison = r.ComparisonSign;
            categories.Labels.Add($"{r.Budget[(Component(r.Budget).Length + 1)..]}   {Figures.Format(r.Measured)} {comparison} {Figures.Format(r.Limit!.Value)} {r.Unit}   {shown}{(cut ? " (cut)" : string.Empty)}");
            bars.Items.Add(new BarItem(cut ? AxisMaximumPercent : Math.Max(percent, 0)) { Color = VerdictStyle.Color(r.Verdict) });
        }

        model.Axes.Add(categories);
        model.Axes.Add(values);
        model.Series.Add(bars);
        model.Annotations.Add(new LineAnnotation { Type = LineAnnotationType.Vertical, X = 100, Color = OxyColors.Black, StrokeThickness = 1.5, LineStyle = LineStyle.Dash });

        // OxyPlot measures text with its own font metrics, narrower than a browser's: the label margin is set from the
        // longest label instead, so no budget name is cut off.
        model.PlotMargins = new OxyThickness(16 + (6.7 * categories.Labels.Max(l => l.Length)), double.NaN, double.NaN, double.NaN);
        return SvgChart.Export(model, SvgChart.PageWidth, 60 + (24 * gated.Count));
    }
}
