using PerfBudgets.Budgets;

namespace PerfBudgets.Gating;

/// <summary>
/// A count more than its margin below its recording means the recording is stale (an improvement, or a first guess):
/// the limit then sits that much above the code's real cost and a regression of the same size passes. A warning, or
/// a failure under <see cref="BudgetGateOptions.RecordingStrict"/>.
/// </summary>
internal sealed class StaleRecordingRule(bool strict) : IGateRule
{
    /// <inheritdoc />
    public RuleConclusion? Apply(GateFacts facts)
    {
        var budget = facts.Budget;
        if (budget.Recorded is not { } recorded || budget.Margin is not { } margin || facts.Measured >= recorded * (1 - margin) - budget.MarginAbsolute)
        {
            return null;
        }

        var line = GateMessages.StaleRecording(budget, facts.Measured, recorded, margin);
        return strict ? RuleConclusion.Fails(FailureCause.StaleRecording, GateMessages.StrictRecording(line)) : RuleConclusion.Warning(line);
    }
}
