using System.Text;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Html;

namespace PerfBudgets.Reporting.Html.Tests;

public sealed class BudgetSectionTests
{
    private static BudgetResult Result(string budget, string kind, double measured, double? limit, BudgetVerdict verdict) =>
        new(budget, kind, measured, limit, "B/op", verdict, "ci", DateTimeOffset.UnixEpoch, MachineInfo.Current, null);

    [Theory]
    [InlineData("HPack.Decode.BytesPerOp", "HPack")]
    [InlineData("Standalone", "Standalone")]
    [InlineData(".Leading", ".Leading")]
    public void A_budget_belongs_to_the_component_before_its_first_dot(string budget, string component) =>
        BudgetSection.Component(budget).Should().Be(component);

    [Fact]
    public void A_zero_limit_is_0_percent_at_zero_and_unbounded_above()
    {
        BudgetSection.PercentOfLimit(Result("A.Zero", "allocated-bytes-per-op", 0, 0, BudgetVerdict.Pass)).Should().Be(0);
        BudgetSection.PercentOfLimit(Result("A.Zero", "allocated-bytes-per-op", 1, 0, BudgetVerdict.Fail)).Should().Be(double.PositiveInfinity);
    }

    [Fact]
    public void A_bar_past_the_axis_is_cut_and_says_so()
    {
        var html = new StringBuilder();

        BudgetSection.Append(html, [Result("A.Big", "allocated-bytes-per-op", 400, 100, BudgetVerdict.Fail)]);

        html.ToString().Should().Contain("Big   400 ≤ 100 B/op   400% (cut)").And.Contain("<h3>A</h3>");
    }
}
