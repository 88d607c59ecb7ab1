using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Measuring;
using PerfBudgets.Processes;
using PerfBudgets.Reporting;

namespace PerfBudgets;

public sealed partial class BudgetGate
{
    /// <summary>
    /// Checks a paired budget (<c>vs-base-ratio-max</c>, <c>vs-base-ratio-min</c>) against head ÷ base measured in
    /// alternating rounds (<see cref="PairedRounds"/>): the figure <see cref="VsBaseCheck(string, PairedComparison)"/> gives, judged as <see cref="Check"/> judges.
    /// </summary>
    /// <param name="budgetName">A paired budget defined in <c>budgets.json</c>.</param>
    /// <param name="comparison">Head against base for the budget's figure.</param>
    /// <exception cref="ArgumentException">The budget is not of a paired kind.</exception>
    public BudgetResult CheckVsBase(string budgetName, PairedComparison comparison)
    {
        var budget = _resolver.Paired(budgetName);
        var check = VsBaseCheck(budget, comparison);
        return CheckFigure(budget, check.Measured, check.Detail, diagnose: null, known: null);
    }

    /// <summary>
    /// Measures and checks a paired budget in one call: finds the base commit of the repository that holds the test
    /// assembly (<see cref="BaseBuild.TryResolve(string, out string)"/>, once per gate, from the options' <see cref="BudgetGateOptions.BaseCommit"/>,
    /// <see cref="BudgetGateOptions.PairingOff"/> and <see cref="BudgetGateOptions.IsCi"/>), hands it to <paramref name="measure"/> (which builds what it needs
    /// at the base and compares, e.g. <see cref="PairedWorkloads.CompareCpuTime(BaseBuild, string, IReadOnlyList{string}, int, PairedRoundsOptions)"/>),
    /// and gates the comparison (<see cref="CheckVsBase(string, PairedComparison)"/>). Where there is no base (a shallow
    /// clone, a root commit, no git, <c>PERF_BASE_COMMIT=none</c>) or it does not build, the budget is reported as not measured
    /// with the reason and the fix (<see cref="NotMeasured"/>), never as passed. A comparison beyond the limit is
    /// measured again, up to <see cref="DefaultVsBaseAttempts"/> times in all (<see cref="CheckVsBase(string, Func{BaseBuild, PairedComparison}, int)"/>).
    /// </summary>
    /// <param name="budgetName">A paired budget defined in <c>budgets.json</c>.</param>
    /// <param name="measure">Compares the head with the base it is given, in processes it starts for the call.</param>
    public BudgetResult CheckVsBase(string budgetName, Func<BaseBuild, PairedComparison> measure) =>
        CheckVsBase(budgetName, measure, DefaultVsBaseAttempts);

    /// <summary>
    /// As <see cref="CheckVsBase(string, Func{BaseBuild, PairedComparison})"/>, measuring again while the comparison
    /// lies beyond the limit, up to <paramref name="maxAttempts"/> comparisons in all: the budget fails only when every
    /// one of them does, and its detail names the earlier ones.
    /// </summary>
    /// <remarks>
    /// Rounds of one pair of processes are paired, but the two processes carry luck of their own for as long as they
    /// live (the core each started on, a thread pool grown differently, code compiled at another tier), which no number
    /// of rounds cancels (docs/paired-budgets.md, "Pairs of processes": an unchanged pair's head ÷ base moves by far
    /// more than its interval's width from one pair to the next). A regression breaks every pair of processes; a pair's
    /// luck rarely breaks two. <paramref name="measure"/> must start fresh processes on each call.
    /// </remarks>
    /// <param name="budgetName">A paired budget defined in <c>budgets.json</c>.</param>
    /// <param name="measure">Compares the head with the base it is given, in processes it starts for the call.</param>
    /// <param name="maxAttempts">Comparisons at the most, at least 1.</param>
    public BudgetResult CheckVsBase(string budgetName, Func<BaseBuild, PairedComparison> measure, int maxAttempts) =>
        CheckVsBase(budgetName, measure, diagnose: null, maxAttempts);

    /// <summary>
    /// Checks a paired budget as <see cref="CheckVsBase(string, Func{BaseBuild, PairedComparison})"/> does, and when it
    /// fails, says what grew: <paramref name="diagnose"/> profiles both builds (for a served workload,
    /// <c>PairedWorkloadProfiler.CompareWithBase</c> of PerfBudgets.Diagnostics) and the failure names the methods whose
    /// share grew, the program's own first. A passing budget never calls it.
    /// </summary>
    /// <param name="budgetName">A paired budget defined in <c>budgets.json</c>.</param>
    /// <param name="measure">Compares the head with the base it is given.</param>
    /// <param name="diagnose">Profiles the head against the same base; called only when the budget fails.</param>
    public BudgetResult CheckVsBase(string budgetName, Func<BaseBuild, PairedComparison> measure, Func<BaseBuild, Attribution> diagnose)
    {
        ArgumentNullException.ThrowIfNull(diagnose);
        return CheckVsBase(budgetName, measure, diagnose, DefaultVsBaseAttempts);
    }

    private BudgetResult CheckVsBase(string budgetName, Func<BaseBuild, PairedComparison> measure, Func<BaseBuild, Attribution>? diagnose, int maxAttempts)
    {
        ArgumentNullException.ThrowIfNull(measure);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxAttempts, 1);
        var budget = _resolver.Paired(budgetName);
        var (found, reason) = _base.Value;
        if (found is null)
        {
            NotMeasured(budgetName, reason);
        }

        BudgetCheck check;
        try
        {
            check = RepeatConfirmation.RunAsync(
                () => Task.FromResult(measure(found.UnderBudget(budget))),
                comparison => [VsBaseCheck(budget, comparison.BaseDescription is null ? comparison.WithBase(found.Description) : comparison)],
                maxAttempts,
                _resolver.Paired).GetAwaiter().GetResult().Checks[0];
        }
        catch (BaseBuildException e)
        {
            NotMeasured(budgetName, e.Message);
            throw;
        }
        catch (ChildProcessException e)
        {
            // A host that hung or died: a run that broke, failed by name with what the host last said.
            check = new BudgetCheck(budgetName, double.NaN, e.Message);
        }

        return CheckFigure(budget, check.Measured, check.Detail, diagnose is null ? null : () => diagnose(found), known: null);
    }

    /// <summary>
    /// Comparisons <see cref="CheckVsBase(string, Func{BaseBuild, PairedComparison})"/> makes at the most before a
    /// paired budget fails: 2, each in fresh processes.
    /// </summary>
    public const int DefaultVsBaseAttempts = 2;

    // The base is chosen once per gate (and so once per test process): a file a test writes, or a build step, cannot
    // change which commit the later paired budgets of the same run compare with.
    private static Lazy<(BaseBuild? Base, string Reason)> ResolveBaseOnce(BudgetGateOptions options) => new(() =>
    {
        var selection = new BaseSelection(options.PairingOff ? null : options.BaseCommit, options.PairingOff, options.IsCi, options.BasesKept);
        if (options.BaseResolver is { } resolver)
        {
            return resolver(selection);
        }

        var found = BaseBuild.TryResolve(AppContext.BaseDirectory, selection, out var reason);
        return (found, reason);
    });

    /// <summary>
    /// The check of a paired budget, for <see cref="CheckAll(BudgetCheck[])"/> beside others. The figure gated is the
    /// interval's end that gives the budget's <see cref="Budget.PairedRule"/> its verdict: under <see cref="PairedRule.Catch"/>
    /// the far end (the upper of a ceiling) when the whole interval shows a change toward the limit (it lies above 1),
    /// else the end nearest to passing, so that the budget fails when a change is shown and the limit is not ruled out;
    /// under <see cref="PairedRule.Beyond"/> always the end nearest to passing, so that it fails only when the whole
    /// interval lies beyond the limit. The estimate, the interval and both builds' own figures are in the detail. Fewer than six usable pairs give no figure, which fails as a run that broke. A comparison that was
    /// not run because the head's build cannot differ from the base's (<see cref="PairedComparison.SameInputs"/>) gives
    /// 1, and the detail says why nothing ran.
    /// </summary>
    /// <param name="budgetName">A paired budget defined in <c>budgets.json</c>.</param>
    /// <param name="comparison">Head against base for the budget's figure.</param>
    /// <exception cref="ArgumentException">The budget is not of a paired kind.</exception>
    public BudgetCheck VsBaseCheck(string budgetName, PairedComparison comparison) => VsBaseCheck(_resolver.Paired(budgetName), comparison);

    private static BudgetCheck VsBaseCheck(Budget budget, PairedComparison comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        if (double.IsNaN(comparison.Ratio))
        {
            return new BudgetCheck(budget.Name, double.NaN, $"fewer than {PairedInterval.MinimumPairs} pairs with a positive figure on both sides; {comparison.BaseRounds.Count} pairs ran");
        }

        if (comparison.NotRunBecause is not null)
        {
            return new BudgetCheck(budget.Name, comparison.Ratio, comparison.ToString());
        }

        var decision = PairedDecision.Of(budget);
        return new BudgetCheck(budget.Name, decision.Judged(comparison.Lower, comparison.Upper), $"{decision.Describe(comparison.Lower, comparison.Upper)}; {comparison}");
    }
}
