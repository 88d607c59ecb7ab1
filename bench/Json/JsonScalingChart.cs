using OxyPlot;
using OxyPlot.Axes;
using OxyPlot.Legends;
using OxyPlot.Series;

namespace PerfGate.Bench.Json;

/// <summary>Draws ops/s against threads, one line per strategy, as SVG with OxyPlot's managed exporter.</summary>
internal static class JsonScalingChart
{
    public static void WriteSvg(IReadOnlyList<JsonScalingRow> rows, string shape, int count, string path)
    {
        var model = new PlotModel
        {
            Title = $"JSON round trips, {shape}: ops/s against threads",
            Subtitle = $"{count:N0} round trips per point, {Environment.ProcessorCount} cores",
            Background = OxyColors.White,
        };
        model.Legends.Add(new Legend { LegendPosition = LegendPosition.RightBottom, LegendPlacement = LegendPlacement.Inside });
        model.Axes.Add(new LogarithmicAxis { Position = AxisPosition.Bottom, Title = "threads", Base = 2, Minimum = 0.8, Maximum = 40, MajorGridlineStyle = LineStyle.Dot });
        model.Axes.Add(new LinearAxis { Position = AxisPosition.Left, Title = "round trips per second", Minimum = 0, MajorGridlineStyle = LineStyle.Dot, StringFormat = "#,0" });
        foreach (var strategy in rows.Select(r => r.Strategy).Distinct())
        {
            var series = new LineSeries { Title = strategy, MarkerType = MarkerType.Circle, MarkerSize = 3 };
            foreach (var row in rows.Where(r => r.Strategy == strategy).OrderBy(r => r.Threads))
            {
                series.Points.Add(new DataPoint(row.Threads, row.OperationsPerSecond));
            }

            model.Series.Add(series);
        }

        using var file = File.Create(path);
        new SvgExporter { Width = 800, Height = 450 }.Export(model, file);
    }
}
