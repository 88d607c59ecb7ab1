using System.Diagnostics;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Exporters;

namespace PerfBudgets.Gating;

/// <summary>
/// The last step of every check: records the result (results.json, history.jsonl, the summaries), gives its warnings,
/// and throws its failure. Nothing else in the gate records a budget's result or throws its failure.
/// </summary>
internal sealed class ResultRecorder(BudgetBook book, RunExporters exporters, RunIdentity run, BudgetGateOptions options)
{
    // Every recorded entry carries its budget's noise threshold, so that a reader without this budgets.json (the results
    // server's change points) knows how far the figure moves between unchanged runs.
    public BudgetResult Record(BudgetResult result)
    {
        if (result.Kind != BudgetResult.InfoKind && result.Noise is null && book.TryGetNoiseThreshold(result.Budget, out var noise))
        {
            result = result with { Noise = noise.Relative, NoiseAbsolute = noise.Absolute };
        }

        exporters.Record(result, run, options.StepSummaryFile);
        return result;
    }

    /// <summary>
    /// Records <paramref name="outcome"/>'s result, gives its warnings, then throws its failure
    /// (<see cref="BudgetExceededException"/>) or its skip (<see cref="BudgetNotMeasuredException"/>); returns the recorded
    /// result when there is neither.
    /// </summary>
    public BudgetResult RecordThenThrow(GateOutcome outcome)
    {
        var recorded = Record(outcome.Result);
        foreach (var warning in outcome.Warnings)
        {
            options.Warnings.Warn(warning);
        }

        if (outcome.Cause is { } cause)
        {
            var budget = outcome.Budget;
            throw new BudgetExceededException([new BudgetFailure
            {
                BudgetName = budget.Name, Measured = outcome.Result.Measured, Limit = budget.Limit, Unit = budget.Unit,
                Direction = budget.Direction, Cause = cause, Message = outcome.Message!,
            }]);
        }

        if (outcome.Skipped)
        {
            Debug.Assert(outcome.Message is not null, "a skip says which budget and why");
            throw new BudgetNotMeasuredException(outcome.Message);
        }

        return recorded;
    }
}
