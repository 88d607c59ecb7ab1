namespace PerfBudgets.Server.Changes;

/// <summary>The smallest step of a budget's medians that <see cref="ChangePointFinder"/> reports (<see cref="ShiftThresholds"/>).</summary>
/// <param name="MinShift">Relative: the larger median ÷ the smaller − 1; <see cref="double.PositiveInfinity"/> when no step counts.</param>
/// <param name="MinAbsolute">Absolute: the medians' difference in the budget's unit must exceed it (its <c>noiseAbsolute</c>; 0 for most).</param>
/// <param name="Source">Where it comes from: <c>query</c>, <c>budget</c> or <c>kind</c> (the server's budgets.json), <c>run</c> (the budget's latest run), <c>default</c> (the kind's default: no noise threshold, or a wider one).</param>
internal sealed record MinimumStep(double MinShift, double MinAbsolute, string Source);
