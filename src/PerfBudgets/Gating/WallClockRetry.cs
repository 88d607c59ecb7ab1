using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// The retry policy of a scenario measured against the wall clock: run it again while the only budgets it breaks are
/// kinds a busy machine can break (<see cref="BudgetKind.IsConfirmedByRepeat"/>: wall-clock kinds, sampled waits), up to
/// a number of attempts. A busy neighbour only adds
/// latency and takes rate away, while a regression breaks every attempt; a failed request is never repeated away.
/// </summary>
internal static class WallClockRetry
{
    /// <summary>
    /// The checks of the attempt that is final (the first that breaks nothing, breaks more than the wall clock, or is
    /// the last), each detail led by the broken figures of the earlier attempts.
    /// </summary>
    public static async Task<IReadOnlyList<BudgetCheck>> RunAsync<T>(Func<Task<T>> run, Func<T, IReadOnlyList<BudgetCheck>> checks, int maxAttempts, Func<string, Budget> budgetOf)
    {
        var earlier = new List<string>();
        for (var attempt = 1; ; attempt++)
        {
            var measured = checks(await run());
            var broken = measured.Where(c => !budgetOf(c.BudgetName).IsMet(c.Measured)).ToArray();
            if (broken.Length == 0 || attempt == maxAttempts || !broken.All(c => budgetOf(c.BudgetName).Kind.IsConfirmedByRepeat))
            {
                var tries = earlier.Count == 0 ? null : $"attempt {attempt} of {maxAttempts}, earlier attempts broke {string.Join(" / ", earlier)}";
                return measured.Select(c => tries is null ? c : c with { Detail = string.IsNullOrEmpty(c.Detail) ? tries : $"{tries}; {c.Detail}" }).ToArray();
            }

            earlier.Add(string.Join(", ", broken.Select(c => $"{c.BudgetName} = {Figures.Format(c.Measured)}")));
        }
    }
}
