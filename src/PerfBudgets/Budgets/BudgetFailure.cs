namespace PerfBudgets.Budgets;

/// <summary>Why a budget failed.</summary>
public enum FailureCause
{
    /// <summary>The measurement is past the limit.</summary>
    OverLimit,

    /// <summary>Within the limit, but worse than the baseline run beyond its noise, and the gate is strict about it.</summary>
    WorseThanBaseline,

    /// <summary>It could not be measured, and an unmeasured budget fails here (CI).</summary>
    NotMeasured,

    /// <summary>A counted budget measured on another runtime or Valgrind version than it was recorded with.</summary>
    OtherVersions,
}

/// <summary>One broken budget, as <see cref="BudgetExceededException.Failures"/> lists them.</summary>
/// <param name="BudgetName">The budget's name in <c>budgets.json</c>.</param>
/// <param name="Measured">What was measured, in <paramref name="Unit"/>; NaN when nothing was.</param>
/// <param name="Limit">The limit in force.</param>
/// <param name="Unit">The budget's unit.</param>
/// <param name="Direction">Which side of the limit the measurement must stay on.</param>
/// <param name="Cause">Why it failed.</param>
/// <param name="Message">The failure's text: its line, then the lines saying what broke it when that is known.</param>
public sealed record BudgetFailure(
    string BudgetName,
    double Measured,
    double Limit,
    string Unit,
    BudgetDirection Direction,
    FailureCause Cause,
    string Message)
{
    /// <summary>
    /// How far the measurement is past the limit, as a fraction of the limit: positive when the budget is broken on its
    /// limit (0.54 reads +54%), for a floor as well as a ceiling; NaN when nothing was measured or the limit is 0.
    /// </summary>
    public double Overshoot => double.IsNaN(Measured) || Limit == 0
        ? double.NaN
        : (Direction == BudgetDirection.AtMost ? Measured - Limit : Limit - Measured) / Math.Abs(Limit);
}
