using PerfBudgets.Budgets;

namespace PerfBudgets.Gating;

/// <summary>
/// A figure within its limit but worse than the baseline run by more than its noise threshold
/// (<see cref="BudgetGateOptions.BaselineFile"/>): a warning, or a failure under <see cref="BudgetGateOptions.BaselineStrict"/>.
/// </summary>
internal sealed class BaselineRule(bool strict) : IGateRule
{
    /// <inheritdoc />
    public RuleConclusion? Apply(GateFacts facts)
    {
        if (facts.Judgement is not { Flagged: true, Comparison: { } comparison })
        {
            return null;
        }

        var line = comparison.WarningLine(facts.Budget.Name, facts.Measured, facts.Budget.Unit);
        return strict ? RuleConclusion.Fails(FailureCause.WorseThanBaseline, GateMessages.StrictBaseline(line)) : RuleConclusion.Warning(line);
    }
}
