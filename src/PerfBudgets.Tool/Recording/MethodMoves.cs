using PerfBudgets.Reporting;

namespace PerfBudgets.Tool.Recording;

/// <summary>
/// The methods (or system-call sites) whose share of a count moved most between two breakdowns, largest change first:
/// what a reviewer of a re-recording or of a runtime comparison reads to see where the counts moved.
/// </summary>
internal static class MethodMoves
{
    /// <summary>
    /// The <paramref name="count"/> largest moves between <paramref name="before"/> and <paramref name="after"/>, each
    /// entry's name mapped by <paramref name="key"/> (entries with the same key summed), as
    /// <c>NAME +DELTA (OLD → NEW)</c>; moves under a whole unit per operation are left out.
    /// </summary>
    public static List<string> Largest(IEnumerable<AttributionEntry> before, IEnumerable<AttributionEntry> after, int count,
        Func<string, string> key, Func<string, string> show, string minus)
    {
        var old = Sum(before, key);
        var now = Sum(after, key);
        return old.Keys.Union(now.Keys)
            .Select(method => (Method: method, Old: old.GetValueOrDefault(method), New: now.GetValueOrDefault(method)))
            .Where(m => Math.Abs(m.New - m.Old) >= 1)
            .OrderByDescending(m => Math.Abs(m.New - m.Old))
            .ThenBy(m => m.Method, StringComparer.Ordinal)
            .Take(count)
            .Select(m => $"{show(m.Method)} {(m.New >= m.Old ? "+" : minus)}{Figures.Format(Math.Abs(m.New - m.Old))} ({Figures.Format(m.Old)} → {Figures.Format(m.New)})")
            .ToList();
    }

    private static Dictionary<string, double> Sum(IEnumerable<AttributionEntry> entries, Func<string, string> key) =>
        entries.GroupBy(e => key(e.Name), StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Sum(e => e.Value), StringComparer.Ordinal);
}
