using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Reporting;

public sealed class FiguresTests
{
    [Theory]
    [InlineData(0, "0")]
    [InlineData(2312, "2,312")]
    [InlineData(2312.6, "2,313")]
    [InlineData(0.4567, "0.457")]
    [InlineData(12.5, "12.5")]
    [InlineData(-3, "-3")]
    public void Formats_figures_for_reviewers(double value, string expected) => Figures.Format(value).Should().Be(expected);

    [Theory]
    [InlineData(2312, 1500, "(+54%)")]
    [InlineData(0.45, 0.6, "(-25%)")]
    [InlineData(6850, 6820, "(+0.4%)")]
    [InlineData(5, 0, "(over a zero budget)")]
    public void Overshoot_is_relative_to_the_limit(double measured, double limit, string expected) =>
        Figures.Overshoot(measured, limit).Should().Be(expected);

    [Theory]
    [InlineData(0.44, false, null, "0.4%")]
    [InlineData(-0.04, false, null, "0%")]
    [InlineData(31.4, false, null, "31%")]
    [InlineData(1234.5, false, null, "1,235%")]
    [InlineData(4, true, null, "+4%")]
    [InlineData(-25, true, null, "-25%")]
    [InlineData(0.94, true, 2, "+0.94%")]
    [InlineData(10, true, 2, "+10.00%")]
    public void Every_percentage_is_written_one_way(double percent, bool signed, int? decimals, string expected) =>
        Figures.Percent(percent, signed, decimals).Should().Be(expected);
}
