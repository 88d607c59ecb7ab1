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
}
