using PerfBudgets.Server.Dashboard;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary><see cref="SeriesChart"/>'s y axis labels.</summary>
public sealed class SeriesChartTests
{
    [Theory]
    [InlineData(287867.454, "287,867")]
    [InlineData(92799828, "92,799,828")]
    [InlineData(1000, "1,000")]
    [InlineData(999.5, "999.5")]
    [InlineData(14.25, "14.25")]
    [InlineData(0, "0")]
    public void Large_figures_are_whole_numbers_with_thousands_separators(double value, string label) =>
        SeriesChart.AxisLabel(value).Should().Be(label);

    [Fact]
    public void The_top_label_of_a_counted_budget_is_whole_and_has_room_left_of_the_axis()
    {
        var series = Enumerable.Range(0, 3).Select(i => new SeriesPoint(i + 1, $"c{i}", "main", DateTimeOffset.UnixEpoch, ".NET 10.0.12", null,
            "instructions-max", "instructions/request", 272_599.4 - i, 274_159, "pass", false, false)).ToList();

        var svg = SeriesChart.Render(series, []);

        // 274,159 + 8% of the span from 272,597.4 on top: the axis spans the figures and the limit, not from 0.
        svg.Should().Contain(">274,284</text>").And.Contain("<text class=\"y-label\" x=\"84\"");
    }

    [Fact]
    public void A_series_spanning_the_whole_range_of_a_double_draws_every_point_and_skips_the_runs_not_measured()
    {
        double?[] figures = [-1.7e308, 0, 1.7e308, null];
        var series = figures.Select((m, i) => new SeriesPoint(i + 1, $"c{i}", "main", DateTimeOffset.UnixEpoch, ".NET 10.0.12", null,
            "allocated-bytes-per-op", "B/op", m, null, m is null ? "not-measured" : "info", false, false)).ToList();

        var svg = SeriesChart.Render(series, []);

        // max - min of these overflowed to infinity and every point was drawn at NaN.
        svg.Should().NotContain("NaN").And.NotContain("Infinity");
        System.Text.RegularExpressions.Regex.Matches(svg, "<circle ").Should().HaveCount(3);
        svg.Should().Contain("cy=\"272.9\"").And.Contain("cy=\"150\"").And.Contain("cy=\"27.1\"").And.Contain(">1.798E+308</text>");
    }

    [Fact]
    public void A_page_whose_first_run_changed_the_limit_or_runtime_marks_it_with_the_new_value()
    {
        // The page's first point changed from a run on the page before (the fuzz test found the chart reaching back for it: 500).
        var series = new[] { new SeriesPoint(7, "c7", "main", DateTimeOffset.UnixEpoch, ".NET 10.0.13", null, "allocated-bytes-per-op", "B/op", 120, 250, "pass",
            LimitChanged: true, RuntimeChanged: true) };

        var svg = SeriesChart.Render(series, []);

        svg.Should().Contain("limit changed at c7: to 250").And.Contain("runtime changed at c7: to .NET 10.0.13");
    }
}
