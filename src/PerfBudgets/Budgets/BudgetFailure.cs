namespace PerfBudgets.Budgets;

/// <summary>Why a budget failed.</summary>
internal enum FailureCause
{
    /// <summary>The measurement is past the limit.</summary>
    OverLimit,

    /// <summary>Within the limit, but worse than the baseline run beyond its noise, and the gate is strict about it.</summary>
    WorseThanBaseline,

    /// <summary>It could not be measured, and an unmeasured budget fails here (CI).</summary>
    NotMeasured,

    /// <summary>A counted budget measured on another runtime or Valgrind version than it was recorded with.</summary>
    OtherVersions,

    /// <summary>A counted budget measured below its recording by more than its margin, and the gate is strict about it.</summary>
    StaleRecording,
}

/// <summary>One broken budget, as <see cref="BudgetExceededException.Failures"/> lists them.</summary>
public sealed record BudgetFailure
{
    internal BudgetFailure()
    {
    }

    /// <summary>The budget's name in <c>budgets.json</c>.</summary>
    public required string BudgetName { get; init; }

    /// <summary>What was measured, in <see cref="Unit"/>; NaN when nothing was.</summary>
    public required double Measured { get; init; }

    /// <summary>The limit in force.</summary>
    public required double Limit { get; init; }

    /// <summary>The budget's unit.</summary>
    public required string Unit { get; init; }

    /// <summary>Which side of the limit the measurement must stay on.</summary>
    public required BudgetDirection Direction { get; init; }

    /// <summary>Why it failed.</summary>
    internal FailureCause Cause { get; init; }

    /// <summary>The failure's text: its line, then the lines saying what broke it when that is known.</summary>
    public required string Message { get; init; }

    /// <summary>
    /// How far the measurement is past the limit, as a fraction of the limit: positive when the budget is broken on its
    /// limit (0.54 reads +54%), for a floor as well as a ceiling; NaN when nothing was measured or the limit is 0.
    /// </summary>
    public double Overshoot => double.IsNaN(Measured) || Limit == 0
        ? double.NaN
        : (Direction == BudgetDirection.AtMost ? Measured - Limit : Limit - Measured) / Math.Abs(Limit);
}
