using PerfBudgets.Budgets;

namespace PerfBudgets.Gating;

/// <summary>
/// Counts taken with another Valgrind than the recording's are gated as usual, but a pass says that the versions
/// differ: they are not shown to count alike (the detail says it too, beside the counts).
/// </summary>
internal sealed class OtherValgrindRule : IGateRule
{
    /// <summary>The note for counts taken with <paramref name="countedWith"/>; null when the budget was recorded with it.</summary>
    public static string? Note(RecordedVersions? recordedOn, string countedWith) =>
        recordedOn is { } on && on.Valgrind != countedWith ? GateMessages.OtherValgrind(on.Valgrind, countedWith) : null;

    /// <inheritdoc />
    public RuleConclusion? Apply(GateFacts facts) =>
        facts.CountedWith is { } counted && Note(facts.Budget.RecordedOn, counted.Valgrind) is { } note
            ? RuleConclusion.Warning($"{facts.Budget.Name}: {note}")
            : null;
}
