using PerfBudgets.Budgets;

namespace PerfBudgets.Tests.Budgets;

// The arithmetic of a counted budget's recording (BudgetBook.CountedRecording.cs): what the reader checks every counted
// limit against, and what the tool's recorder writes.
public sealed class BudgetBookCountedRecordingTests
{
    [Fact]
    public void A_counted_limit_is_the_recording_plus_its_margin_rounded_up_to_two_decimals()
    {
        BudgetBook.CountedLimit(1000, 0.01).Should().Be(1010);
        BudgetBook.CountedLimit(1234.561, 0).Should().Be(1234.57);
        BudgetBook.CountedLimit(BudgetKind.InstructionsMax, 1000, 0.01).Should().Be(1010);
    }

    [Fact]
    public void A_recording_is_the_median_of_the_runs_rounded_to_two_decimals()
    {
        BudgetBook.CountedRecording([1003.004, 1001.001, 1002.006], 0.01).Should().Be((1002.01, 1012.04));
        BudgetBook.CountedRecording(BudgetKind.SyscallsMax, [2, 4], 0).Should().Be((3, 3));
    }

    [Theory]
    [InlineData(new[] { 3.0 }, 3.0)]
    [InlineData(new[] { 5.0, 1.0, 3.0 }, 3.0)]
    [InlineData(new[] { 4.0, 1.0, 3.0, 2.0 }, 2.5)]
    public void The_median_is_the_middle_value_or_the_mean_of_the_two_middle_ones(double[] values, double median) =>
        BudgetBook.Median(values).Should().Be(median);

    [Fact]
    public void No_runs_record_nothing() =>
        FluentActions.Invoking(() => BudgetBook.CountedRecording([], 0.01)).Should().Throw<ArgumentOutOfRangeException>();
}
