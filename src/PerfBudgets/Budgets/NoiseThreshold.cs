namespace PerfBudgets.Budgets;

/// <summary>
/// How much a budget's figure moves between unchanged runs: a comparison with a baseline flags a change only when it
/// is worse by more than <see cref="Relative"/> (a fraction of the baseline) and by more than <see cref="Absolute"/>
/// (in the budget's unit).
/// </summary>
/// <param name="Relative">Fraction of the baseline figure, e.g. 0.15 for 15%.</param>
/// <param name="Absolute">A change at most this large (in the budget's unit) is never flagged; 0 for most budgets.</param>
/// <param name="Source">Where the threshold comes from: <c>budget</c> (the budget's own <c>noise</c>) or <c>kind</c> (the file's <c>noise</c> object).</param>
public sealed record NoiseThreshold(double Relative, double Absolute, string Source);
