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
}
