using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets;

public sealed partial class BudgetGate
{
    /// <summary>
    /// Measures a CPU cost with <paramref name="measure"/> and checks it against <paramref name="budgetName"/>; when it
    /// is over the limit, measures again, up to <paramref name="maxAttempts"/> times in all, and gates the lowest cost.
    /// </summary>
    /// <remarks>
    /// Interference from the rest of a shared machine only ever adds CPU time, while a regression in the measured code
    /// raises every attempt, so the lowest attempt is the fair figure, and a burst of noise from a neighbour does not
    /// fail the build. Every attempt's cost is in the recorded detail, so a budget that needed retries shows it.
    /// </remarks>
    /// <param name="budgetName">A <c>cpu-cost-max</c> budget defined in <c>budgets.json</c>.</param>
    /// <param name="measure">Takes one measurement (warm-up included).</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    /// <param name="maxAttempts">At most this many measurements; 1 disables the retry.</param>
    /// <param name="diagnose">
    /// Optional: names the hottest methods of the same operation (<c>CpuProfiler</c> of the PerfBudgets.Diagnostics package), called only
    /// when the budget fails after every attempt (see <see cref="Check"/>).
    /// </param>
    public BudgetResult CheckCost(string budgetName, Func<CpuMeasurement> measure, string? describe = null, int maxAttempts = 3, Func<Attribution>? diagnose = null)
    {
        ArgumentNullException.ThrowIfNull(measure);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxAttempts);
        var budget = _resolver.Get(budgetName);
        var (cost, detail) = LowestCostRetry.Measure(budget, measure, maxAttempts, describe);
        return CheckFigure(budget, cost, detail, diagnose, known: null);
    }

    /// <summary>
    /// Runs a scenario measured against the wall clock (a load run) and checks its budgets with <c>CheckAll</c>.
    /// When the only budgets it breaks are kinds a busy machine can break (latency, rates: <see cref="BudgetKind.IsWallClock"/>;
    /// blocked time and lock contentions sampled in a live server), the scenario runs again, up to <paramref name="maxAttempts"/> times in all, and the first attempt that meets every
    /// budget passes.
    /// </summary>
    /// <remarks>
    /// A busy neighbour only ever adds latency and takes rate away, while a regression in the code under load breaks
    /// every attempt; so repeating separates the two, as <see cref="CheckCost"/> does for CPU. A failed request is
    /// never repeated away: when an <c>errors-max</c> budget breaks, the attempt is final. The recorded detail lists
    /// the broken figures of every earlier attempt. When the last attempt broke only timed budgets (not the paired
    /// ones, which compare with their base beside the same neighbours) while other processes took more than
    /// <see cref="BudgetGateOptions.MaxNeighbourCpuShare"/> of the machine's CPU, those budgets are reported as not
    /// measured, with the share, rather than as a regression (<see cref="NotMeasured(string, string)"/>: under CI that fails too).
    /// </remarks>
    /// <param name="run">Runs the scenario once.</param>
    /// <param name="checks">The budgets of one run's result.</param>
    /// <param name="maxAttempts">At most this many runs; 1 disables the repetition.</param>
    public async Task<IReadOnlyList<BudgetResult>> CheckRunAsync<T>(Func<Task<T>> run, Func<T, IReadOnlyList<BudgetCheck>> checks, int maxAttempts = 3)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(checks);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxAttempts);
        var attempts = await RepeatConfirmation.RunAsync(run, checks, maxAttempts, _resolver.Get, Options.MaxNeighbourCpuShare, Options.NeighbourWindow);
        if (attempts.BusyNeighbourShare is not { } share)
        {
            return CheckAll(attempts.Checks);
        }

        // Broken only beside busy neighbours: what met its budget is recorded as usual, what broke is not measured.
        var met = CheckAll(attempts.Checks.Where(c => !attempts.Broken.Contains(c.BudgetName)).ToList());
        NotMeasuredAll(attempts.Checks.Where(c => attempts.Broken.Contains(c.BudgetName))
            .Select(c => (c.BudgetName, GateMessages.BusyNeighbours(_resolver.Get(c.BudgetName), c.Measured, share, Options.MaxNeighbourCpuShare, c.Detail))).ToList());
        return met;
    }
}
