using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Measuring;
using static PerfBudgets.Tests.Support.CountedMeasurements;

namespace PerfBudgets.Tests.Gating;

public sealed class CountConfirmationTests
{
    private static readonly Budget Counted = new("A.Instructions", BudgetKind.InstructionsMax, 1010, "instructions/op", "ci", "");

    [Fact]
    public async Task A_count_within_its_limit_is_not_counted_again()
    {
        var first = Measured(100_000, 200);

        var (chosen, describe) = await CountConfirmation.ChooseAsync(Counted, first, () => throw new InvalidOperationException("not called"), "what");

        (chosen, describe).Should().Be((first, "what"));
    }

    [Fact]
    public async Task A_count_over_its_limit_is_counted_again_and_the_smaller_chosen_with_both_in_the_description()
    {
        var (chosen, describe) = await CountConfirmation.ChooseAsync(Counted, Measured(102_000, 200), () => Task.FromResult(Measured(100_500, 200)), null);

        chosen.InstructionsPerOperation.Should().Be(1005);
        describe.Should().Be("counted twice, each in a process of its own: 1,020 then 1,005 instructions/op, the smaller gated");
    }

    [Fact]
    public async Task Counts_on_another_runtime_than_the_recording_are_not_counted_again()
    {
        var budget = Counted with { RecordedOn = new RecordedVersions("1.0.0", "3.19.0") };
        InstructionMeasurement first = Measured(102_000, 200);

        var (chosen, _) = await CountConfirmation.ChooseAsync(budget, first, () => throw new InvalidOperationException("not called"), null);

        chosen.Should().BeSameAs(first);
    }
}
