using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tool;

/// <summary>One budget of <see cref="ChangeTable"/>: its figure in each run and how the head compares with the base.</summary>
/// <param name="Budget">Budget name.</param>
/// <param name="Base">The base run's result, or null when only the head has the budget.</param>
/// <param name="Head">The head run's result, or null when only the base has it.</param>
/// <param name="Comparison">Head against base, or null unless both measured a figure.</param>
/// <param name="Noise">The budget's noise threshold from the budget book, or null without one (nothing is flagged).</param>
internal sealed record ChangeRow(string Budget, BudgetResult? Base, BudgetResult? Head, BaselineComparison? Comparison, NoiseThreshold? Noise)
{
    /// <summary>True when the head is worse than the base by more than the budget's noise threshold.</summary>
    public bool Flagged => Noise is not null && Comparison is { Flagged: true };
}
