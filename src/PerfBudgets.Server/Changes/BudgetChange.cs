namespace PerfBudgets.Server.Changes;

/// <summary>A change point of one timed budget's series on a branch, as <c>GET …/changes</c> answers it.</summary>
/// <param name="Budget">The budget.</param>
/// <param name="Kind">Its kind in the latest run.</param>
/// <param name="Unit">The unit of its figures.</param>
/// <param name="Commit">The first commit measured at the new level.</param>
/// <param name="Index">That run's index in the branch's series of the budget, oldest first.</param>
/// <param name="RunsAfter">How many runs of the series are at or after <paramref name="Commit"/> (1 = the latest run).</param>
/// <param name="MedianBefore">The median of the level before.</param>
/// <param name="MedianAfter">The median of the level from <paramref name="Commit"/> on.</param>
/// <param name="RelativeShift">(after − before) / |before|.</param>
/// <param name="MinShift">The smallest step that counted for this budget (larger median ÷ smaller − 1): <c>--min-shift</c>, else the smaller of its noise threshold and its kind's default (<see cref="ShiftThresholds"/>).</param>
/// <param name="MinShiftSource">Where <paramref name="MinShift"/> came from: <c>query</c>, <c>budget</c> or <c>kind</c> (the server's budgets.json), <c>run</c> (the noise threshold the budget's latest run recorded), <c>default</c> (<see cref="ShiftThresholds.DefaultByKind"/>: no noise threshold, or a wider one).</param>
/// <param name="RuntimeChanged">The run at <paramref name="Commit"/> ran on another runtime than the one before it: the shift may be the runtime's.</param>
internal sealed record BudgetChange(
    string Budget,
    string Kind,
    string Unit,
    string Commit,
    int Index,
    int RunsAfter,
    double MedianBefore,
    double MedianAfter,
    double RelativeShift,
    double MinShift,
    string MinShiftSource,
    bool RuntimeChanged)
{
    /// <summary>The smallest difference of the medians that counted, in the budget's unit (its absolute noise floor; 0 for most).</summary>
    public double MinShiftAbsolute { get; init; }
}
