using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// The retry policy of a scenario measured against the wall clock: run it again while the only budgets it breaks are
/// kinds a busy machine can break (<see cref="BudgetKind.IsConfirmedByRepeat"/>: wall-clock kinds, sampled waits), up to
/// a number of attempts. A busy neighbour only adds
/// latency and takes rate away, while a regression breaks every attempt; a failed request is never repeated away.
/// </summary>
internal static class RepeatConfirmation
{
    /// <summary>
    /// The checks of the attempt that is final (the first that breaks nothing, breaks more than the wall clock, or is
    /// the last), each detail led by the broken figures of the earlier attempts. With <paramref name="maxNeighbourShare"/>,
    /// a final attempt whose broken budgets are all timed, unpaired kinds, and during which other processes took more
    /// than that share of the machine's CPU (<see cref="Measuring.NeighbourCpu"/>), answers the neighbours' share
    /// instead of a verdict: the figure is the neighbours' as much as the code's.
    /// </summary>
    /// <param name="run">Runs the scenario once.</param>
    /// <param name="checks">The budgets of one run's result.</param>
    /// <param name="maxAttempts">At most this many runs.</param>
    /// <param name="budgetOf">The budget of a name.</param>
    /// <param name="maxNeighbourShare">The neighbours' share of the CPU past which a timed break is theirs; null never asks.</param>
    /// <param name="neighbourWindow">Starts a window and answers what ends it with the neighbours' share; null reads <c>/proc</c> (<see cref="Measuring.NeighbourCpu"/>).</param>
    public static async Task<WallClockAttempts> RunAsync<T>(Func<Task<T>> run, Func<T, IReadOnlyList<BudgetCheck>> checks, int maxAttempts, Func<string, Budget> budgetOf,
        double? maxNeighbourShare = null, Func<Func<double?>>? neighbourWindow = null)
    {
        var earlier = new List<string>();
        for (var attempt = 1; ; attempt++)
        {
            var window = maxNeighbourShare is null ? null : (neighbourWindow ?? Measuring.NeighbourCpu.Window)();
            var measured = checks(await run());
            var share = window?.Invoke();
            var broken = measured.Where(c => !budgetOf(c.BudgetName).IsMet(c.Measured)).ToArray();
            var busy = share is { } s && s > maxNeighbourShare;
            var neighbours = share is { } taken ? $" (neighbours {GateMessages.Percent(taken)} of the CPU)" : string.Empty;
            if (broken.Length == 0 || attempt == maxAttempts || !broken.All(c => budgetOf(c.BudgetName).Kind.IsConfirmedByRepeat))
            {
                var tries = earlier.Count == 0 ? null : $"attempt {attempt} of {maxAttempts}, earlier attempts broke {string.Join(" / ", earlier)}";
                var final = measured.Select(c => tries is null ? c : c with { Detail = string.IsNullOrEmpty(c.Detail) ? tries : $"{tries}; {c.Detail}" }).ToArray();
                var judgedBusy = busy && broken.Length > 0 && broken.All(c => budgetOf(c.BudgetName).Kind is { IsConfirmedByRepeat: true, IsPaired: false });
                return new WallClockAttempts(final, judgedBusy ? share : null, broken.Select(c => c.BudgetName).ToArray());
            }

            earlier.Add(string.Join(", ", broken.Select(c => $"{c.BudgetName} = {Figures.Format(c.Measured)}")) + neighbours);
        }
    }
}

/// <summary>The final attempt's checks, and when its broken budgets were broken beside busy neighbours, their share.</summary>
/// <param name="Checks">The final attempt's checks, their details led by the earlier attempts.</param>
/// <param name="BusyNeighbourShare">The share of the machine's CPU other processes took during the final attempt, when it broke only timed budgets beside neighbours busier than allowed; else null.</param>
/// <param name="Broken">The budgets the final attempt broke.</param>
internal sealed record WallClockAttempts(IReadOnlyList<BudgetCheck> Checks, double? BusyNeighbourShare, IReadOnlyList<string> Broken);
