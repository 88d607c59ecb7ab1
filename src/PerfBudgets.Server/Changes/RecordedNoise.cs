namespace PerfBudgets.Server.Changes;

/// <summary>
/// The noise threshold a run's results.json recorded with a budget's figure: the gate's, from the project's own
/// budgets.json at that commit.
/// </summary>
/// <param name="Relative">results.json's <c>noise</c>, in budgets.json's convention (a rise for an at-most kind, a drop for an at-least kind).</param>
/// <param name="Absolute">results.json's <c>noiseAbsolute</c>, in the budget's unit (0 when absent).</param>
internal sealed record RecordedNoise(double Relative, double Absolute);
