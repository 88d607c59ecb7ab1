namespace PerfBudgets.Budgets;

/// <summary>Which side of its limit a measurement must stay on.</summary>
public enum BudgetDirection
{
    /// <summary>The measurement must not exceed the limit (allocations, latency, errors, sizes).</summary>
    AtMost,

    /// <summary>The measurement must not fall below the limit (throughput, efficiency, ratios).</summary>
    AtLeast,
}
