using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// The retry policy of a CPU cost: measure again while the lowest cost so far is over the limit, up to a number of
/// attempts, and gate the lowest. Interference from the rest of a shared machine only ever adds CPU time, while a
/// regression raises every attempt.
/// </summary>
internal static class LowestCostRetry
{
    /// <summary>The lowest cost of the attempts, and the detail that names every attempt's cost when there was more than one.</summary>
    public static (double Cost, string Detail) Measure(Budget budget, Func<CpuMeasurement> measure, int maxAttempts, string? describe)
    {
        var attempts = new List<CpuMeasurement> { measure() };
        while (!budget.IsMet(attempts.Min(a => a.Cost)) && attempts.Count < maxAttempts)
        {
            attempts.Add(measure());
        }

        var best = attempts.MinBy(a => a.Cost)!;
        var tries = attempts.Count == 1
            ? string.Empty
            : $"lowest of {attempts.Count} attempts ({string.Join(" / ", attempts.Select(a => Figures.Format(a.Cost)))}); ";
        var detail = string.IsNullOrEmpty(describe) ? $"{tries}{best}" : $"{describe}; {tries}{best}";
        return (best.Cost, detail);
    }
}
