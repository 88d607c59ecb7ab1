using System.Globalization;
using OxyPlot;

namespace PerfBudgets.Reporting.Html;

/// <summary>
/// The charts of the report: one style for all, exported with OxyPlot's managed SvgExporter as SVG to put inline in the
/// page.
/// </summary>
internal static class SvgChart
{
    /// <summary>The width of a chart that spans the page.</summary>
    internal const int PageWidth = 1240;

    // Room for a left axis's tick labels: OxyPlot measures text narrower than a browser draws it (and so would put an
    // axis title over them, which is why the units are in the chart titles).
    internal const double LeftAxisMargin = 78;

    private static int _charts;

    /// <summary>A chart in the report's style, titled <paramref name="title"/> (none when null).</summary>
    public static PlotModel NewModel(string? title) => new()
    {
        Title = title,
        TitleFontSize = 12,
        TitleFontWeight = FontWeights.Normal,
        Background = OxyColors.White,
        DefaultFont = "sans-serif",
        PlotAreaBorderColor = OxyColor.FromRgb(0xbb, 0xbb, 0xbb),
    };

    /// <summary>The chart as an inline <c>&lt;svg&gt;</c> element whose clip-path ids no other chart of the process uses.</summary>
    public static string Export(PlotModel model, double width, double height)
    {
        // Every exported SVG names its clip paths clipPath1, clipPath2, ...; inline in one page those ids would collide
        // and each chart would be clipped by the first chart's rectangles, so each chart gets its own.
        var prefix = "chart" + Interlocked.Increment(ref _charts).ToString(CultureInfo.InvariantCulture) + "-clip";
        var svg = SvgExporter.ExportToString(model, width, height, false).Replace("clipPath", prefix, StringComparison.Ordinal)
            .Replace("<" + prefix, "<clipPath", StringComparison.Ordinal).Replace("</" + prefix, "</clipPath", StringComparison.Ordinal);
        var start = svg.IndexOf("<svg", StringComparison.Ordinal);
        return start >= 0 ? svg[start..] : svg;
    }
}
