using PerfBudgets.Budgets;

namespace PerfBudgets.Tests.Budgets;

// The arithmetic of a counted budget (Budgets/CountedLimits.cs): what the reader checks every counted limit against,
// and what the tool's recorder writes.
public sealed class CountedLimitsTests
{
    [Fact]
    public void A_counted_limit_is_the_recording_plus_its_margin_rounded_up_to_two_decimals()
    {
        CountedLimits.Limit(BudgetKind.InstructionsMax, 1000, 0.01).Should().Be(1010);
        CountedLimits.Limit(BudgetKind.InstructionsMax, 1234.561, 0).Should().Be(1234.57);
    }

    [Fact]
    public void An_absolute_margin_adds_room_in_the_budgets_unit_that_a_fraction_of_zero_cannot()
    {
        CountedLimits.Limit(BudgetKind.SyscallsMax, 0, 0.5).Should().Be(0);
        CountedLimits.Limit(BudgetKind.SyscallsMax, 0, 0.5, 0.5).Should().Be(0.5);
        CountedLimits.Limit(BudgetKind.SyscallsMax, 2, 0, 0.5).Should().Be(2.5, "2 + 0.5 is not raised a step by a rounding error");
    }

    [Fact]
    public void A_growth_exponents_margin_is_in_exponent_units_rounded_up_to_three_decimals()
    {
        CountedLimits.Limit(BudgetKind.GrowthExponentMax, 1, 0.01).Should().Be(1.01, "a sum that is exactly on three decimals is not rounded up past it");
        CountedLimits.Limit(BudgetKind.GrowthExponentMax, 1.0033, 0.01).Should().Be(1.014);
    }

    [Fact]
    public void A_recording_is_the_median_of_the_runs_rounded_to_two_decimals()
    {
        CountedLimits.Recording(BudgetKind.InstructionsMax, [1003.004, 1001.001, 1002.006], 0.01).Should().Be((1002.01, 1012.04));
        CountedLimits.Recording(BudgetKind.SyscallsMax, [2, 4], 0).Should().Be((3, 3));
        CountedLimits.Recording(BudgetKind.SyscallsMax, [2, 4], 0, 0.5).Should().Be((3, 3.5));
    }

    [Fact]
    public void No_runs_record_nothing() =>
        FluentActions.Invoking(() => CountedLimits.Recording(BudgetKind.InstructionsMax, [], 0.01)).Should().Throw<ArgumentOutOfRangeException>();
}
