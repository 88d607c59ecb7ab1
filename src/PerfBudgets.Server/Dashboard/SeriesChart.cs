using System.Globalization;
using System.Text;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// A budget's series over commits as inline SVG: the figure of each run (a circle per run, red where the gate failed,
/// with its commit, figure and verdict as a tooltip), the limit as a dashed step line, and vertical marks where the
/// limit was re-recorded, where the runtime changed and where a change point was found. Runs are spaced evenly in
/// upload order, as commits are, not by time.
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
        var values = series.Select(p => p.Measured).Concat(series.Where(p => p.Limit is not null).Select(p => p.Limit!.Value))
            .Where(double.IsFinite).ToList();
        var low = values.Count > 0 ? Math.Min(0, values.Min()) : 0;
        var high = values.Count > 0 ? values.Max() : 1;
        if (high <= low)
        {
            high = low + 1;
        }

        high += (high - low) * 0.05;
        double X(int index) => series.Count == 1 ? Left + (Width - Left - Right) / 2 : Left + index * (Width - Left - Right) / (series.Count - 1);
        double Y(double value) => Top + (high - value) / (high - low) * (Height - Top - Bottom);

        var svg = new StringBuilder();
        svg.Append(Invariant($"<svg class=\"series\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{Height}\" viewBox=\"0 0 {Width} {Height}\" role=\"img\" aria-label=\"figure per run\">"));
        // Axes with the range's ends and the first and last commit.
        svg.Append(Invariant($"<line x1=\"{Left}\" y1=\"{Top}\" x2=\"{Left}\" y2=\"{Height - Bottom}\" stroke=\"#8c959f\"/>"));
        svg.Append(Invariant($"<line x1=\"{Left}\" y1=\"{Height - Bottom}\" x2=\"{Width - Right}\" y2=\"{Height - Bottom}\" stroke=\"#8c959f\"/>"));
        svg.Append(Invariant($"<text x=\"{Left - 6}\" y=\"{Y(high) + 4:0.#}\" text-anchor=\"end\">{AxisLabel(high)}</text>"));
        svg.Append(Invariant($"<text x=\"{Left - 6}\" y=\"{Y(low) + 4:0.#}\" text-anchor=\"end\">{AxisLabel(low)}</text>"));
        if (series.Count > 0)
        {
            svg.Append(Invariant($"<text class=\"x-label\" x=\"{X(0):0.#}\" y=\"{Height - Bottom + 16}\" text-anchor=\"start\">{Short(series[0].Commit)}</text>"));
            svg.Append(Invariant($"<text class=\"x-label\" x=\"{X(series.Count - 1):0.#}\" y=\"{Height - Bottom + 16}\" text-anchor=\"end\">{Short(series[^1].Commit)}</text>"));
        }

        for (var i = 0; i < series.Count; i++)
        {
            if (series[i].LimitChanged)
            {
                Mark(svg, "re-recording", X(i), $"limit changed at {series[i].Commit}: {HtmlPage.Number(series[i - 1].Limit)} to {HtmlPage.Number(series[i].Limit)}");
            }

            if (series[i].RuntimeChanged)
            {
                Mark(svg, "runtime-change", X(i), $"runtime changed at {series[i].Commit}: {series[i - 1].Runtime} to {series[i].Runtime}");
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

        if (series.Count > 1)
        {
            svg.Append("<polyline class=\"figure\" points=\"");
            svg.AppendJoin(' ', series.Select((p, i) => Invariant($"{X(i):0.#},{Y(p.Measured):0.#}")));
            svg.Append("\"/>");
        }

        for (var i = 0; i < series.Count; i++)
        {
            var p = series[i];
            svg.Append(Invariant($"<circle class=\"point{(p.Failed ? " failed" : "")}\" cx=\"{X(i):0.#}\" cy=\"{Y(p.Measured):0.#}\" r=\"4\" data-commit=\"{HtmlPage.Encode(p.Commit)}\">"));
            svg.Append(Invariant($"<title>{HtmlPage.Encode(p.Commit)}: {HtmlPage.Number(p.Measured)} {HtmlPage.Encode(p.Unit)} (limit {HtmlPage.Number(p.Limit)}) {HtmlPage.Encode(p.Verdict)}</title></circle>"));
        }

        svg.Append("</svg>");
        return svg.ToString();
    }

    /// <summary>
    /// A y axis label: from 1,000 up (or down) a whole number with thousands separators, so that its length grows
    /// only with its magnitude (287,867); below, the figure as the pages write it.
    /// </summary>
    internal static string AxisLabel(double value) =>
        Math.Abs(value) >= 1000 ? value.ToString("N0", CultureInfo.InvariantCulture) : HtmlPage.Number(value);

    private static void Mark(StringBuilder svg, string kind, double x, string title) =>
        svg.Append(Invariant($"<line class=\"{kind}\" x1=\"{x:0.#}\" y1=\"{Top}\" x2=\"{x:0.#}\" y2=\"{Height - Bottom}\"><title>{HtmlPage.Encode(title)}</title></line>"));

    private static string Short(string commit) => HtmlPage.Encode(commit.Length > 8 ? commit[..8] : commit);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
