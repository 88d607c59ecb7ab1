using PerfBudgets.Reporting;

namespace PerfBudgets;

/// <summary>One figure to check against its budget, as <see cref="BudgetGate.CheckAll(BudgetCheck[])"/> takes them.</summary>
/// <param name="BudgetName">A name defined in <c>budgets.json</c>.</param>
/// <param name="Measured">The measurement, in the budget's unit.</param>
/// <param name="Detail">Optional context recorded beside the figure (sample size, the inputs of a ratio).</param>
public sealed record BudgetCheck(string BudgetName, double Measured, string? Detail = null)
{
    /// <summary>
    /// Optional: says what broke the budget, called only when it fails (see <see cref="BudgetGate.Check"/>); its
    /// summary follows the budget's failure line.
    /// </summary>
    public Func<Attribution>? Diagnose { get; init; }
}
