using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Gating;

/// <summary>
/// Judges a figure: against its limit and against the baseline run (<see cref="BudgetGateOptions.BaselineFile"/>);
/// then says what the limit concludes (<see cref="GateOutcome"/>).
/// </summary>
internal sealed class BudgetJudge(BudgetBook book, BaselineResults? baseline, BudgetGateOptions options)
{
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
    /// What the gate concludes from <paramref name="judgement"/> against the limit: the result (its verdict and the
    /// baseline comparison), failed when over the limit. The rules (<see cref="GateRules"/>) add the rest.
    /// </summary>
    public static GateOutcome Outcome(Budget budget, double measured, string? detail, Attribution? attribution, Judgement judgement)
    {
        var result = GateOutcome.ResultOf(budget, measured, judgement.Verdict, detail, attribution) with { Baseline = judgement.Comparison };
        var outcome = new GateOutcome(budget, result);
        return judgement.Met ? outcome : outcome with { Cause = FailureCause.OverLimit, Message = GateMessages.OverLimit(budget, measured, detail, attribution) };
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
