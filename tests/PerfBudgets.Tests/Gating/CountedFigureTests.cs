using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using static PerfBudgets.Tests.Support.CountedMeasurements;

namespace PerfBudgets.Tests.Gating;

public sealed class CountedFigureTests
{
    private static Budget Of(BudgetKind kind) => new("A.Counted", kind, 1, "u", "ci", "");

    [Fact]
    public void The_kind_says_which_count_is_the_figure()
    {
        var measurement = Measured(100_900, 200);

        CountedFigure.Of(Of(BudgetKind.InstructionsMax), measurement).Should().Be(1009, "the repetition with the fewest, per operation");
        CountedFigure.Of(Of(BudgetKind.SyscallsMax), measurement).Should().Be(2);
    }

    [Fact]
    public void A_cycles_budget_needs_the_cache_simulation() =>
        FluentActions.Invoking(() => CountedFigure.Of(Of(BudgetKind.CyclesMax), Measured(100_900, 200)))
            .Should().Throw<ArgumentException>().WithMessage("A.Counted is a cycles-max budget, and the measurement has no estimated cycles*");
}
