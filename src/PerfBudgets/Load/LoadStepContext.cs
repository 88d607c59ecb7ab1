namespace PerfBudgets.Load;

/// <summary>Which request a step is running.</summary>
/// <param name="Copy">In a closed-model phase, the index of the copy running the step (for per-copy state such as a
/// connection); in an open-model phase, −1, because requests there belong to no copy.</param>
/// <param name="Request">The request's sequence number in the scenario, from 0.</param>
public readonly record struct LoadStepContext(int Copy, long Request);
