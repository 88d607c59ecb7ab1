using System.Globalization;
using System.Text;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// A budget's series over commits as inline SVG: the figure of each run (a circle per run, red where the gate failed,
/// with its commit, figure and verdict as a tooltip), the limit as a dashed step line, and vertical marks where the
/// limit was re-recorded, where the runtime changed and where a change point was found, and a faint separator between
/// two runs of different commits. Runs are spaced evenly in upload order, as commits are, not by time. The y axis spans
/// the figures and the limit with some room (<see cref="YRange"/>), not from 0: a counted budget 1% under its limit
/// would be a flat line on an axis from 0; where it does not start at 0 its bottom label says so and the axis has a break.
/// </summary>
internal static class SeriesChart
{
    private const double Width = 860;
    private const double Height = 320;
    // Room for the y axis's labels: a figure in the hundreds of millions with its separators ("287,867,454", 11
    // characters at about 7 pixels each) and the gap to the axis. At 70 pixels a label of ten characters lost its first
    // digit ("287867.454" of Json.Endpoint.Employees9.ServerInstructions on real runs).
    private const double Left = 90;
    private const double Right = 20;
    private const double Top = 20;
    private const double Bottom = 40;

    public static string Render(IReadOnlyList<SeriesPoint> series, IReadOnlyList<int> changePoints)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(changePoints);
        var (low, high) = YRange(series);
        double X(int index) => series.Count == 1 ? Left + (Width - Left - Right) / 2 : Left + index * (Width - Left - Right) / (series.Count - 1);
        // In halves: the span of figures near ±1.7e308 overflows a double, and every point was drawn at NaN.
        double Y(double value) => Top + (high / 2 - value / 2) / (high / 2 - low / 2) * (Height - Top - Bottom);

        var svg = new StringBuilder();
        svg.Append(Invariant($"<svg class=\"series\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{Height}\" viewBox=\"0 0 {Width} {Height}\" role=\"img\" aria-label=\"figure per run\">"));
        // Axes with the range's ends and the first and last commit.
        svg.Append(Invariant($"<line x1=\"{Left}\" y1=\"{Top}\" x2=\"{Left}\" y2=\"{Height - Bottom}\" stroke=\"#8c959f\"/>"));
        svg.Append(Invariant($"<line x1=\"{Left}\" y1=\"{Height - Bottom}\" x2=\"{Width - Right}\" y2=\"{Height - Bottom}\" stroke=\"#8c959f\"/>"));
        svg.Append(Invariant($"<text class=\"y-label\" x=\"{Left - 6}\" y=\"{Y(high) + 4:0.#}\" text-anchor=\"end\">{AxisLabel(high)}</text>"));
        svg.Append(Invariant($"<text class=\"y-label\" x=\"{Left - 6}\" y=\"{Y(low / 2 + high / 2) + 4:0.#}\" text-anchor=\"end\">{AxisLabel(low / 2 + high / 2)}</text>"));
        if (low <= 0 && high >= 0)
        {
            // The axis holds 0 (from it, or across it for figures around it): its foot is what it says.
            svg.Append(Invariant($"<text class=\"y-label\" x=\"{Left - 6}\" y=\"{Y(low) + 4:0.#}\" text-anchor=\"end\">{AxisLabel(low)}</text>"));
        }
        else
        {
            // Not from 0: a break in the axis just above its foot, and the foot's label says where the axis starts.
            var foot = Height - Bottom;
            svg.Append(Invariant($"<path class=\"axis-break\" d=\"M{Left - 5},{foot - 8}l10,-4M{Left - 5},{foot - 4}l10,-4\"/>"));
            svg.Append(Invariant($"<text class=\"y-label y-origin\" x=\"{Left - 6}\" y=\"{Y(low) + 4:0.#}\" text-anchor=\"end\"><title>the axis starts at {AxisLabel(low)}, not at 0</title>{AxisLabel(low)}</text>"));
            svg.Append(Invariant($"<text class=\"y-origin-note\" x=\"{Left + 4}\" y=\"{Height - Bottom - 4}\">axis from {AxisLabel(low)}, not 0</text>"));
        }

        if (series.Count > 0)
        {
            svg.Append(Invariant($"<text class=\"x-label\" x=\"{X(0):0.#}\" y=\"{Height - Bottom + 16}\" text-anchor=\"start\">{Short(series[0].Commit)}</text>"));
            svg.Append(Invariant($"<text class=\"x-label\" x=\"{X(series.Count - 1):0.#}\" y=\"{Height - Bottom + 16}\" text-anchor=\"end\">{Short(series[^1].Commit)}</text>"));
        }

        // Where the commit changes between two runs: a faint separator halfway between them with a tick under the axis,
        // so that a change point "at commit X" (a mark on X's first run) reads against the commits' runs.
        for (var i = 1; i < series.Count; i++)
        {
            if (!string.Equals(series[i].Commit, series[i - 1].Commit, StringComparison.Ordinal))
            {
                var x = (X(i - 1) + X(i)) / 2;
                svg.Append(Invariant($"<line class=\"commit-boundary\" x1=\"{x:0.#}\" y1=\"{Top}\" x2=\"{x:0.#}\" y2=\"{Height - Bottom + 5}\"><title>{HtmlPage.Encode(series[i - 1].Commit)} to {HtmlPage.Encode(series[i].Commit)}</title></line>"));
            }
        }

        // A page's first point may have changed from the run before the page (read to tell, then dropped): its mark
        // names the new value alone. Reaching back for the old one threw for every page that began at a change.
        for (var i = 0; i < series.Count; i++)
        {
            var before = i > 0 ? series[i - 1] : null;
            if (series[i].LimitChanged)
            {
                Mark(svg, "re-recording", X(i), $"limit changed at {series[i].Commit}: {(before is null ? "" : $"{HtmlPage.Number(before.Limit)} ")}to {HtmlPage.Number(series[i].Limit)}");
            }

            if (series[i].RuntimeChanged)
            {
                Mark(svg, "runtime-change", X(i), $"runtime changed at {series[i].Commit}: {(before is null ? "" : $"{before.Runtime} ")}to {series[i].Runtime}");
            }
        }

        foreach (var index in changePoints.Where(i => i > 0 && i < series.Count))
        {
            Mark(svg, "change-point", X(index), $"change point at {series[index].Commit}");
        }

        // The limit as steps: it holds from its run until the next run's.
        var limit = new StringBuilder();
        for (var i = 0; i < series.Count; i++)
        {
            if (series[i].Limit is not { } value)
            {
                continue;
            }

            var from = i == 0 ? X(0) : (X(i - 1) + X(i)) / 2;
            var to = i == series.Count - 1 ? X(i) : (X(i) + X(i + 1)) / 2;
            limit.Append(Invariant($"M{from:0.#},{Y(value):0.#}H{to:0.#}"));
        }

        if (limit.Length > 0)
        {
            svg.Append(Invariant($"<path class=\"limit\" d=\"{limit}\"><title>limit</title></path>"));
        }

        // A run that measured nothing has no point; the line joins the runs that did.
        var drawn = series.Select((p, i) => (Point: p, Index: i)).Where(p => p.Point.Measured is not null).ToList();
        if (drawn.Count > 1)
        {
            svg.Append("<polyline class=\"figure\" points=\"");
            svg.AppendJoin(' ', drawn.Select(p => Invariant($"{X(p.Index):0.#},{Y(p.Point.Measured!.Value):0.#}")));
            svg.Append("\"/>");
        }

        foreach (var (p, i) in drawn)
        {
            svg.Append(Invariant($"<circle class=\"point{(p.Failed ? " failed" : "")}\" cx=\"{X(i):0.#}\" cy=\"{Y(p.Measured!.Value):0.#}\" r=\"4\" data-commit=\"{HtmlPage.Encode(p.Commit)}\">"));
            svg.Append(Invariant($"<title>{HtmlPage.Encode(p.Commit)}: {HtmlPage.Number(p.Measured)} {HtmlPage.Encode(p.Unit)} (limit {HtmlPage.Number(p.Limit)}) {HtmlPage.Encode(p.Verdict)}</title></circle>"));
        }

        svg.Append("</svg>");
        return svg.ToString();
    }

    /// <summary>
    /// The y axis's range: from the lowest to the highest of the figures and the limits, widened by
    /// <see cref="RangePadding"/> of that span on each side (by that share of the figure itself when they are all one
    /// value, and by 1 around 0), and not below 0 for figures that never are. 0 is no anchor: a counted budget at
    /// 272,599 under a limit of 274,159 is a flat line on an axis from 0.
    /// </summary>
    internal static (double Low, double High) YRange(IReadOnlyList<SeriesPoint> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var values = series.Select(p => p.Measured).Concat(series.Select(p => p.Limit))
            .OfType<double>().Where(double.IsFinite).ToList();
        if (values.Count == 0)
        {
            return (0, 1);
        }

        var (min, max) = (values.Min(), values.Max());
        // Half the span, which is finite for any two finite figures (max - min of ±1.7e308 is not); the padded ends
        // stay within double's range.
        var halfSpan = max / 2 - min / 2;
        var pad = halfSpan > 0 ? halfSpan * (2 * RangePadding) : Math.Abs(max) > 0 ? Math.Abs(max) * RangePadding : 1;
        var low = Math.Max(min - pad, -double.MaxValue);
        // Figures that cannot go below 0 (none of them does) keep an axis that does not either.
        return (min >= 0 && low < 0 ? 0 : low, Math.Min(max + pad, double.MaxValue));
    }

    /// <summary>The room above and below the figures and the limit, as a share of their span: 8%.</summary>
    internal const double RangePadding = 0.08;

    /// <summary>
    /// A y axis label: from 1,000 up (or down) a whole number with thousands separators, so that its length grows
    /// only with its magnitude (287,867); from 10^15 up, four digits and an exponent (1.798E+308), as a whole number
    /// would be wider than the chart; below 1,000, the figure as the pages write it.
    /// </summary>
    internal static string AxisLabel(double value) =>
        Math.Abs(value) >= 1e15 ? value.ToString("0.###E+0", CultureInfo.InvariantCulture)
        : Math.Abs(value) >= 1000 ? value.ToString("N0", CultureInfo.InvariantCulture)
        : HtmlPage.Number(value);

    private static void Mark(StringBuilder svg, string kind, double x, string title) =>
        svg.Append(Invariant($"<line class=\"{kind}\" x1=\"{x:0.#}\" y1=\"{Top}\" x2=\"{x:0.#}\" y2=\"{Height - Bottom}\"><title>{HtmlPage.Encode(title)}</title></line>"));

    private static string Short(string commit) => HtmlPage.Encode(commit.Length > 8 ? commit[..8] : commit);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
