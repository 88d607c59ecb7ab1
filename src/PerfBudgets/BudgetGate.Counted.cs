using PerfBudgets.Budgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Gating;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets;

public sealed partial class BudgetGate
{
    /// <summary>
    /// Checks a counted budget (<c>instructions-max</c>, <c>syscalls-max</c>, or <c>cycles-max</c> on a measurement taken
    /// with the cache simulation on) against what the instruction meter counted. The figure's breakdown by method is recorded with every result (it costs nothing more); when the
    /// budget breaks, the failure names the methods that grew since the recording (<see cref="RecordedMethodsFile.FileName"/>
    /// beside <c>budgets.json</c>) and, with a baseline, since the baseline run. A measurement taken on another runtime
    /// than the budget was recorded with fails and says so: counts do not compare across runtime versions. One taken
    /// with another Valgrind version is gated as usual, and its failure or pass says that the versions differ.
    /// </summary>
    /// <param name="budgetName">A counted budget defined in <c>budgets.json</c>.</param>
    /// <param name="measurement">The counts of the budget's workload.</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    public BudgetResult CheckCount(string budgetName, InstructionMeasurement measurement, string? describe = null)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        var budget = _resolver.Counted(budgetName);
        var measured = CountedFigure.Of(budget, measurement);
        var detail = GateMessages.CountedDetail(describe, measurement.ToString());
        if (OtherValgrindRule.Note(budget.RecordedOn, measurement.ValgrindVersion) is { } note)
        {
            detail = $"{note}; {detail}";
        }

        // What grew since the recording means something only on the recording's runtime; on another, the other-runtime
        // rule fails the count whatever it is, and its breakdown is recorded as counted.
        var comparable = budget.RecordedOn is not { } recordedOn || recordedOn.Runtime == measurement.RuntimeVersion;
        return CheckFigure(budget, measured, detail, diagnose: null, known: CountAttribution.From(measurement, budget.Kind), _countRules,
            new RecordedVersions(measurement.RuntimeVersion, measurement.ValgrindVersion),
            overLimit: comparable ? breakdown => _changes.CountedGrowth(budget, measured, breakdown, InclusiveAttribution.Of(measurement)) : null);
    }

    /// <summary>
    /// Checks a counted budget as <see cref="CheckCount"/> does, but a count over the limit is first confirmed: the
    /// workload is counted again by <paramref name="confirm"/> (in a fresh process) and the smaller of the two counts
    /// is gated. Work the runtime does on its own clock (a timer, a stub or helper made at a run-dependent time) only
    /// ever adds to a count, while a regression in the code raises both; the detail gives both counts.
    /// </summary>
    /// <param name="budgetName">A counted budget defined in <c>budgets.json</c>.</param>
    /// <param name="measurement">The first count of the budget's workload.</param>
    /// <param name="confirm">Counts the workload again, in a process of its own; called only when the first count is over the limit.</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    public async Task<BudgetResult> CheckCountConfirmedAsync(string budgetName, InstructionMeasurement measurement, Func<Task<InstructionMeasurement>> confirm, string? describe = null)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        ArgumentNullException.ThrowIfNull(confirm);
        var (chosen, described) = await CountConfirmation.ChooseAsync(_resolver.Counted(budgetName), measurement, confirm, describe).ConfigureAwait(false);
        return CheckCount(budgetName, chosen, described);
    }

    /// <summary>
    /// Checks a <c>growth-exponent-max</c> budget against an operation counted at two sizes: the figure is the growth
    /// exponent (<see cref="GrowthMeasurement.Exponent"/>). The breakdown recorded with it is each method's
    /// instructions per item at the large size; when the budget breaks, the failure names the methods whose count per
    /// item rose between the sizes (<see cref="GrowthAttribution"/>). Counts taken on another runtime than the budget
    /// was recorded with fail and say so, as in <see cref="CheckCount"/>.
    /// </summary>
    /// <param name="budgetName">A <c>growth-exponent-max</c> budget defined in <c>budgets.json</c>.</param>
    /// <param name="growth">The operation counted at its two sizes.</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    public BudgetResult CheckGrowth(string budgetName, GrowthMeasurement growth, string? describe = null)
    {
        ArgumentNullException.ThrowIfNull(growth);
        var budget = _resolver.Growth(budgetName);
        var measured = growth.Exponent;
        var detail = GateMessages.CountedDetail(describe, growth.ToString());
        return CheckFigure(budget, measured, detail, diagnose: null, known: GrowthAttribution.From(growth), _growthRules,
            new RecordedVersions(growth.Large.RuntimeVersion, growth.Large.ValgrindVersion));
    }
}
