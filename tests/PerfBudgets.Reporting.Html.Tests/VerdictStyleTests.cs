using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Html;

namespace PerfBudgets.Reporting.Html.Tests;

public sealed class VerdictStyleTests
{
    [Fact]
    public void Every_verdict_has_a_colour_of_its_own_and_a_lower_case_name()
    {
        var verdicts = Enum.GetValues<BudgetVerdict>().Where(v => v != BudgetVerdict.NotMeasured).ToArray();

        verdicts.Select(v => VerdictStyle.Css(VerdictStyle.Color(v))).Should().OnlyHaveUniqueItems();
        VerdictStyle.Css(VerdictStyle.Color(BudgetVerdict.Fail)).Should().Be("#c62828");
        VerdictStyle.Name(BudgetVerdict.Warn).Should().Be("warn");
    }
}
