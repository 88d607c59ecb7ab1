using PerfBudgets.Budgets;

namespace PerfBudgets.Gating;

/// <summary>
/// Counts taken on another runtime than the budget was recorded with do not compare with it, whatever they are: the
/// check fails and says so (docs/instruction-counting.md, versions).
/// </summary>
internal sealed class OtherRuntimeRule : IGateRule
{
    /// <inheritdoc />
    public RuleConclusion? Apply(GateFacts facts) =>
        facts is { CountedWith: { } counted, Budget.RecordedOn: { } recorded } && recorded.Runtime != counted.Runtime
            ? new RuleConclusion(GateMessages.OtherRuntime(facts.Budget, recorded.Runtime, counted.Runtime, facts.Measured), FailureCause.OtherVersions) { Overrides = true }
            : null;
}
