using System.Globalization;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Diagnosing;

/// <summary>
/// Compares a failing budget's breakdown with the same budget's breakdown from an earlier run, entry by entry, and
/// names what changed by more than the sampling error: "added types" when a regression adds a type that is not the
/// largest one overall (a 280 B array in a request that allocates 6 KB of other things).
/// </summary>
/// <remarks>
/// The baseline is a <c>results.json</c> of a run whose breakdowns were recorded: a run with
/// <c>PERF_DIAGNOSE=always</c> (which diagnoses passing budgets too), or one whose budgets failed. Each entry's figure
/// has a relative standard error of about 1/√samples; a change is named only when it exceeds three times the
/// combined standard error of the two figures: a request allocates some 80 types, and at twice the error about four of
/// them would be named for noise alone in every comparison (5% each).
/// </remarks>
internal static class AttributionChange
{
    /// <summary>
    /// One line saying what changed since <paramref name="baseline"/>, the baseline run's breakdown of the same budget
    /// (<see cref="BaselineResults"/>, <c>PERF_BASELINE</c>), or null when the breakdown is not per operation. Only
    /// allocation breakdowns (<c>B/op</c>) are compared: a CPU breakdown counts samples of runs of different lengths,
    /// which do not compare.
    /// </summary>
    public static string? Describe(Attribution current, Attribution? baseline, string baselineFile, int top = 5)
    {
        ArgumentNullException.ThrowIfNull(current);
        var unit = current.Entries.FirstOrDefault()?.Unit;
        if (unit != "B/op")
        {
            return null;
        }

        if (baseline is null || baseline.Entries.Count == 0)
        {
            return $"vs baseline: {Path.GetFileName(baselineFile)} has no breakdown of this budget (record one with PERF_DIAGNOSE=always)";
        }

        var before = baseline.Entries.Where(e => e.Unit == unit).ToDictionary(e => e.Name, StringComparer.Ordinal);
        // A closure class or state machine the compiler renumbered since the baseline is compared with itself, under the
        // baseline's name, not named as one type gone and another added.
        var now = current.Entries.Where(e => e.Unit == unit).ToList();
        var renumbered = GeneratedNames.Renumbered(now.Select(e => e.Name), before.Keys);
        var after = now.ToDictionary(e => renumbered.GetValueOrDefault(e.Name, e.Name), StringComparer.Ordinal);
        var changes = before.Keys.Union(after.Keys, StringComparer.Ordinal)
            .Select(name =>
            {
                var was = before.GetValueOrDefault(name);
                var now = after.GetValueOrDefault(name);
                var difference = (now?.Value ?? 0) - (was?.Value ?? 0);
                var error = Math.Sqrt(Square(StandardError(was)) + Square(StandardError(now)));
                return (Name: name, Difference: difference, Error: error);
            })
            .Where(c => Math.Abs(c.Difference) > 3 * c.Error)
            .OrderByDescending(c => Math.Abs(c.Difference))
            .Take(top)
            .ToList();
        if (changes.Count == 0)
        {
            return "vs baseline: no entry changed by more than three times its sampling error";
        }

        return "vs baseline: " + string.Join(", ", changes.Select(c => string.Create(CultureInfo.InvariantCulture,
            $"{c.Name} {(c.Difference >= 0 ? "+" : "−")}{Figures.Format(Math.Round(Math.Abs(c.Difference)))} {unit} (±{Figures.Format(Math.Round(c.Error))})")));
    }

    private static double StandardError(AttributionEntry? entry) =>
        entry is { Samples: > 0 } ? entry.Value / Math.Sqrt(entry.Samples.Value) : 0;

    private static double Square(double x) => x * x;
}
