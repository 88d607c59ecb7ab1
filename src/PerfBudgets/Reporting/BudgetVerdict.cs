namespace PerfBudgets.Reporting;

/// <summary>The outcome of one measurement.</summary>
public enum BudgetVerdict
{
    /// <summary>Within the budget.</summary>
    Pass,

    /// <summary>Over (or under) the budget: the test fails.</summary>
    Fail,

    /// <summary>Reported for contrast, not gated.</summary>
    Info,

    /// <summary>Within the budget, but worse than the baseline run by more than the budget's noise threshold (<c>PERF_BASELINE</c>).</summary>
    Warn,

    /// <summary>Could not be measured on this machine (the detail says why); never a pass.</summary>
    NotMeasured,
}
