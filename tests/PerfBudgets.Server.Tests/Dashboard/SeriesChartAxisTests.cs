using System.Text.RegularExpressions;
using PerfBudgets.Server.Dashboard;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary>
/// The budget chart's y axis spans the figures and the limit (not from 0, which flattened a series far from zero), says
/// where it starts when that is not 0, and a faint separator marks where the commit changes between two runs.
/// </summary>
public sealed partial class SeriesChartAxisTests
{
    [Fact]
    public void The_axis_spans_the_figures_and_the_limit_with_room_and_says_it_does_not_start_at_zero()
    {
        var series = Points(("c0", 5_880), ("c1", 5_900), ("c2", 5_960), ("c3", 5_990)).Select(p => p with { Limit = 6_000 }).ToList();

        var (low, high) = SeriesChart.YRange(series);
        var svg = SeriesChart.Render(series, []);

        low.Should().BeApproximately(5_880 - 0.08 * 120, 1e-9);
        high.Should().BeApproximately(6_000 + 0.08 * 120, 1e-9);
        svg.Should().Contain(">5,870</text>").And.Contain(">6,010</text>");
        svg.Should().Contain("class=\"y-label y-origin\"").And.Contain("axis from 5,870, not 0").And.Contain("class=\"axis-break\"");
        // The points use the height: the lowest near the foot (y 280), the highest near the top (y 20), not squeezed at the top.
        Cy(svg).Max().Should().BeGreaterThan(260);
        (Cy(svg).Max() - Cy(svg).Min()).Should().BeGreaterThan(150);
    }

    [Fact]
    public void Figures_that_never_go_below_zero_keep_an_axis_from_zero_without_a_break_and_those_around_zero_span_both_sides()
    {
        var small = Points(("c0", 0.003), ("c1", 0.43), ("c2", 0.2)).Select(p => p with { Limit = 64 }).ToList();
        var around = Points(("c0", -4), ("c1", 2), ("c2", 0)).Select(p => p with { Limit = 64 }).ToList();

        SeriesChart.YRange(small).Low.Should().Be(0);
        SeriesChart.Render(small, []).Should().NotContain("y-origin").And.Contain(">0</text>");
        SeriesChart.YRange(around).Low.Should().BeApproximately(-4 - 0.08 * 68, 1e-9);
        SeriesChart.Render(around, []).Should().NotContain("y-origin", "an axis across 0 holds it").And.Contain(">-9.44</text>");
    }

    [Fact]
    public void A_separator_marks_each_change_of_commit_between_two_runs_and_none_between_runs_of_one_commit()
    {
        var series = Points(("a", 10), ("a", 11), ("b", 10), ("b", 12), ("b", 11), ("c", 13));

        var svg = SeriesChart.Render(series, [2]);

        var boundaries = BoundaryLine().Matches(svg).Select(m => double.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)).ToList();
        boundaries.Should().HaveCount(2, "a to b and b to c");
        // Halfway between the last run of one commit and the first of the next: runs at 90 + i × 150.
        boundaries.Should().Equal(315, 765);
        svg.Should().Contain("<title>a to b</title>").And.Contain("<title>b to c</title>");
        svg.Should().Contain("<line class=\"change-point\" x1=\"390\"", "the change point at b's first run, just right of its separator");
    }

    private static List<SeriesPoint> Points(params (string Commit, double Measured)[] points) =>
        points.Select((p, i) => new SeriesPoint(i + 1, p.Commit, "main", DateTimeOffset.UnixEpoch, ".NET 10.0.12", null,
            "cpu-cost-max", "cal/op", p.Measured, 20, "pass", false, false)).ToList();

    private static List<double> Cy(string svg) =>
        CyAttribute().Matches(svg).Select(m => double.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)).ToList();

    [GeneratedRegex("<circle class=\"point[^\"]*\" cx=\"[^\"]+\" cy=\"([^\"]+)\"")]
    private static partial Regex CyAttribute();

    [GeneratedRegex("<line class=\"commit-boundary\" x1=\"([^\"]+)\"")]
    private static partial Regex BoundaryLine();
}
