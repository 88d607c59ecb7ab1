using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Gating;

/// <summary>
/// Judges a figure: against its limit, against the baseline run (<see cref="BudgetGateOptions.BaselineFile"/>), and
/// whether its floor is stale; then says what the gate concludes (<see cref="GateOutcome"/>).
/// </summary>
internal sealed class BudgetJudge(BudgetBook book, BaselineResults? baseline, BudgetGateOptions options)
{
    private readonly StaleFloor _staleFloor = new(book, options.FloorFactor);

    /// <summary>How <paramref name="measured"/> stands against <paramref name="budget"/>.</summary>
    public Judgement Weigh(Budget budget, double measured)
    {
        var met = budget.IsMet(measured);
        var comparison = Compare(budget, measured);
        var flagged = met && comparison is { Flagged: true };
        var verdict = !met || (flagged && options.BaselineStrict) ? BudgetVerdict.Fail : flagged ? BudgetVerdict.Warn : BudgetVerdict.Pass;
        return new Judgement(met, comparison, flagged, verdict);
    }

    /// <summary>
    /// What the gate concludes from <paramref name="judgement"/>: the result, and the failure (over the limit, or worse
    /// than a strict baseline) or the warnings (worse than the baseline, a stale floor).
    /// </summary>
    public GateOutcome Outcome(Budget budget, double measured, string? detail, Attribution? attribution, Judgement judgement)
    {
        var result = GateOutcome.ResultOf(budget, measured, judgement.Verdict, detail, attribution) with { Baseline = judgement.Comparison };
        var outcome = new GateOutcome(budget, result);
        if (!judgement.Met)
        {
            return outcome with { Cause = FailureCause.OverLimit, Message = GateMessages.OverLimit(budget, measured, detail, attribution) };
        }

        var warnings = new List<string>();
        if (judgement.Flagged)
        {
            var line = judgement.Comparison!.WarningLine(budget.Name, measured, budget.Unit);
            if (options.BaselineStrict)
            {
                return outcome with { Cause = FailureCause.WorseThanBaseline, Message = GateMessages.StrictBaseline(line) };
            }

            warnings.Add(line);
        }

        if (_staleFloor.Warning(budget, measured) is { } staleFloor)
        {
            warnings.Add(staleFloor);
        }

        return outcome with { Warnings = warnings };
    }

    private BaselineComparison? Compare(Budget budget, double measured)
    {
        if (baseline is null)
        {
            return null;
        }

        return baseline.Figure(budget.Name) is { } figure
            ? BaselineComparison.Compare(budget, book.NoiseThreshold(budget.Name), measured, figure)
            : BaselineComparison.Missing;
    }
}
