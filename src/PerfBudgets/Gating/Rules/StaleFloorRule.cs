using PerfBudgets.Budgets;

namespace PerfBudgets.Gating;

/// <summary>
/// A floor the policy set a factor below the slowest run is stale when even this figure, slowed by the kind's whole
/// noise, would propose a higher one: the floor then lets a slowdown of more than the policy's slack pass. A warning
/// only: the figure is timed on a shared machine, and a quiet machine is not a regression.
/// </summary>
internal sealed class StaleFloorRule(BudgetBook book, double floorFactor) : IGateRule
{
    /// <inheritdoc />
    public RuleConclusion? Apply(GateFacts facts) =>
        facts.Judgement.Met && Warning(facts.Budget, facts.Measured) is { } line ? RuleConclusion.Warning(line) : null;

    /// <summary>The warning for <paramref name="measured"/> against <paramref name="budget"/>'s floor, or null when the floor is not stale.</summary>
    public string? Warning(Budget budget, double measured)
    {
        if (!budget.Kind.IsProposedFloor || budget.Limit <= 0 || !double.IsFinite(measured) || !double.IsFinite(floorFactor))
        {
            return null;
        }

        // A file without a noise threshold for the kind gives none: the policy's factor alone.
        var noise = book.TryGetNoiseThreshold(budget.Name, out var threshold) ? Math.Min(threshold.Relative, 1) : 0;
        var proposed = measured * (1 - noise) / floorFactor;
        // A figure exactly the factor above its floor is the run the floor was proposed from, whatever the last bit says.
        return proposed > budget.Limit * (1 + 1e-9)
            ? GateMessages.StaleFloor(budget, measured, floorFactor, noise, proposed)
            : null;
    }
}
