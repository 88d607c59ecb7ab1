using PerfBudgets.Budgets;
using PerfBudgets.Tool.Calibration;

namespace PerfBudgets.Tool.Tests.Calibration;

// perfbudgets calibrate: the room each kind gets from the spread of unchanged runs and its resolution.
public sealed class CalibrationPolicyTests
{
    public static TheoryData<double, double[], int, double, bool> SystemCalls() => new()
    {
        // recorded, runs, operations a repetition, room chosen, warned
        { 0, [0, 0, 0], 4, 0.5, false },          // a path recorded at 0: one stray call a repetition (0.25) passes, one more per op fails
        { 2, [2, 2, 2.25], 4, 0.5, false },       // the README's 1% gave 2.02 and failed at 2.25
        { 13, [13, 13.5, 13], 2, 1, true },       // a stray call seen in 2-operation repetitions: noise as large as a regression
        { 4.07, [4.02, 4.07, 4.2], 200, 0.5, false },
    };

    [Theory]
    [MemberData(nameof(SystemCalls))]
    public void System_calls_get_absolute_room_below_one_more_call_per_operation(double recorded, double[] runs, int operations, double room, bool warned)
    {
        var choice = CalibrationPolicy.Counted(BudgetKind.SyscallsMax, recorded, runs, operations);

        choice.Should().Match<CountedChoice>(c => c.Margin == 0 && c.MarginAbsolute == room && c.Warning == warned);
        var limit = CountedLimits.Limit(BudgetKind.SyscallsMax, recorded, choice.Margin, choice.MarginAbsolute);
        runs.Should().OnlyContain(r => r <= limit, "unchanged runs pass");
        if (!warned)
        {
            (recorded + 1).Should().BeGreaterThan(limit, "one more call per operation fails");
            choice.Reason.Should().Contain($"one more call per operation");
        }
    }

    [Theory]
    [InlineData(new double[] { 1000, 1000, 1000 }, 0.01)]       // an in-process count repeats exactly
    [InlineData(new double[] { 1000, 1015, 990 }, 0.03)]        // a server's: twice the 1.5% it moved
    public void Instruction_margins_are_twice_the_spread_and_at_least_one_percent(double[] runs, double margin)
    {
        var choice = CalibrationPolicy.Counted(BudgetKind.InstructionsMax, 1000, runs, 200);

        choice.Margin.Should().BeApproximately(margin, 1e-9);
        choice.MarginAbsolute.Should().Be(0);
    }

    [Fact]
    public void A_retained_interval_is_lengthened_until_its_noise_is_under_half_the_limit()
    {
        // 107.8 B/op over 80 operations: about 8.6 KB of the heap readings' own, which 500 operations bring to 17 B/op.
        var choice = CalibrationPolicy.Retained(64, [2, 107.8, -5], 80);

        choice.Operations.Should().Be(500);
        choice.Reason.Should().Contain("under half the limit 64");
        CalibrationPolicy.Retained(64, [1, 3, -2], 4000).Operations.Should().Be(4000, "noise under half the limit keeps the interval");
    }

    [Theory]
    [InlineData(1, 1)]
    [InlineData(269.5, 500)]
    [InlineData(1001, 2000)]
    public void Intervals_are_round_numbers(double needed, int chosen) => CalibrationPolicy.NiceAtLeast(needed).Should().Be(chosen);
}
