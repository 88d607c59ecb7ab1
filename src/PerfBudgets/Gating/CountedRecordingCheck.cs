using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// Checks a count against how its budget was recorded (<see cref="Budget.RecordedOn"/>, <see cref="Budget.Recorded"/>):
/// counts on another runtime do not compare and fail; counts with another Valgrind are gated but say so; a count far
/// below its recording means the recording is stale.
/// </summary>
internal static class CountedRecordingCheck
{
    /// <summary>The failure of counts taken on another runtime than the recording's; null on the same one, or without a recording.</summary>
    public static GateOutcome? OtherRuntime(Budget budget, string countedOn, double measured, string detail, Attribution attribution)
    {
        if (budget.RecordedOn is not { } on || on.Runtime == countedOn)
        {
            return null;
        }

        var line = GateMessages.OtherRuntime(budget, on.Runtime, countedOn, measured);
        return GateOutcome.Failed(budget, measured, $"{line}; {detail}", attribution, FailureCause.OtherVersions, line);
    }

    /// <summary>The note for counts taken with another Valgrind than the recording's; null with the same one.</summary>
    public static string? OtherValgrind(Budget budget, string countedWith) =>
        budget.RecordedOn is { } on && on.Valgrind != countedWith ? GateMessages.OtherValgrind(on.Valgrind, countedWith) : null;

    // A count this far below its recording means the recording is stale (an improvement, or a first guess): the limit
    // then sits that much above the code's real cost and a regression of the same size passes.
    public static string? StaleRecording(Budget budget, double measured) =>
        budget.Recorded is { } recorded && budget.Margin is { } margin && measured < recorded * (1 - margin) - budget.MarginAbsolute
            ? GateMessages.StaleRecording(budget, measured, recorded, margin)
            : null;
}
