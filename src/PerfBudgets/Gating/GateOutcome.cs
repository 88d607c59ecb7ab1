using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// What the gate concluded about one figure before anything is written: the result to record, the warnings to give,
/// and the failure to throw once the result is recorded. <see cref="ResultRecorder.RecordThenThrow"/> is the one place that
/// acts on it, so every check records first and throws after, the same way.
/// </summary>
/// <param name="Budget">The budget judged.</param>
/// <param name="Result">The result to record.</param>
internal sealed record GateOutcome(Budget Budget, BudgetResult Result)
{
    /// <summary>Why the budget fails; null when it does not fail.</summary>
    public FailureCause? Cause { get; init; }

    /// <summary>The failure's text, or the not-measured line when <see cref="Skipped"/>.</summary>
    public string? Message { get; init; }

    /// <summary>Not measured, and not a failure where it ran: reported as <see cref="BudgetNotMeasuredException"/>.</summary>
    public bool Skipped { get; init; }

    /// <summary>The lines for the warning sink once the result is recorded, in the order they arose.</summary>
    public IReadOnlyList<string> Warnings { get; init; } = [];

    /// <summary>A failure of <paramref name="budget"/>: recorded as failed, then thrown with <paramref name="message"/>.</summary>
    public static GateOutcome Failed(Budget budget, double measured, string? detail, Attribution? attribution, FailureCause cause, string message) =>
        new(budget, ResultOf(budget, measured, BudgetVerdict.Fail, detail, attribution)) { Cause = cause, Message = message };

    /// <summary>The result of <paramref name="budget"/> stamped now, on this machine.</summary>
    public static BudgetResult ResultOf(Budget budget, double measured, BudgetVerdict verdict, string? detail, Attribution? attribution = null) =>
        new(budget.Name, budget.Kind.Name, measured, budget.Limit, budget.Unit, verdict, budget.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, detail, attribution);
}
