using System.Globalization;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnosing;

/// <summary>
/// Which of the program's own methods grew, each with what it called folded in, between a reference breakdown (the
/// recording, a baseline run) and this run's, and what share of the figure's growth each carries. A method that called
/// <c>ToList()</c> in a loop grew by the whole of the list's copying, so it is named with most of the growth, where an
/// exclusive comparison spreads the same growth over the framework's methods.
/// </summary>
internal static class OwnCodeGrowth
{
    /// <summary>How many standard errors a sampled method's growth must reach to be named: 3 (a false name about 1 in 700).</summary>
    public const double SampledErrors = 3;

    /// <summary>
    /// One line naming the own methods that grew, largest first, with their share of <paramref name="grewBy"/>:
    /// <c>grew since the recording (budgets.methods.json), own code with what it called: TextStats.WordCounter::Add
    /// +2,716 instructions/op (91% of the +2,985 growth; 1,200 → 3,916)</c>; null when none grew by more than
    /// <paramref name="least"/> (or, for sampled entries, by more than their sampling error).
    /// </summary>
    /// <param name="now">This run's own methods, each with what it called.</param>
    /// <param name="before">The reference's own methods: none when it ran none of them (an operation that allocated nothing).</param>
    /// <param name="grewBy">How much the whole figure grew since the reference, when known; else the sum of the methods' growth.</param>
    /// <param name="label">What the reference is: <c>the recording (budgets.methods.json)</c>.</param>
    /// <param name="least">The least growth named, in the entries' unit.</param>
    /// <param name="keptAtMost">
    /// How many entries the reference keeps at most: a method missing from a full reference was at most its smallest entry.
    /// </param>
    /// <param name="top">How many methods to name.</param>
    /// <param name="what">What the entries are, after the label: the program's methods, or the types allocated.</param>
    public static string? Describe(IReadOnlyList<AttributionEntry> now, IReadOnlyList<AttributionEntry> before, double? grewBy, string label, double least, int keptAtMost, int top = 3,
        string what = "own code with what it called")
    {
        ArgumentNullException.ThrowIfNull(now);
        ArgumentNullException.ThrowIfNull(before);
        if (now.Count == 0)
        {
            return null;
        }

        var unit = now[0].Unit;
        var was = before.GroupBy(e => e.Name, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        var renumbered = GeneratedNames.Renumbered(now.Select(e => e.Name), was.Keys);
        var floor = before.Count >= keptAtMost ? before.Min(e => e.Value) : 0;
        var grown = now
            .Select(e =>
            {
                var reference = was.GetValueOrDefault(renumbered.GetValueOrDefault(e.Name, e.Name));
                var then = reference?.Value ?? floor;
                return (Entry: e, Then: then, Bound: reference is null && floor > 0, Growth: e.Value - then, Error: SamplingError(e, reference));
            })
            .Where(g => g.Growth >= least && g.Growth > SampledErrors * g.Error)
            .OrderByDescending(g => g.Growth)
            .ThenBy(g => g.Entry.Name, StringComparer.Ordinal)
            .ToList();
        if (grown.Count == 0)
        {
            return null;
        }

        var whole = grewBy is > 0 ? grewBy.Value : grown.Sum(g => g.Growth);
        var ofWhole = grewBy is > 0 ? string.Create(CultureInfo.InvariantCulture, $" of the +{Figures.Format(Math.Round(whole))} growth") : " of the methods' growth";
        return $"grew since {label}, {what}: " + string.Join(", ", grown.Take(top).Select(g => string.Create(CultureInfo.InvariantCulture,
            $"{g.Entry.Name} +{Figures.Format(Math.Round(g.Growth))} {unit} ({Figures.Percent(Math.Min(1, g.Growth / whole) * 100, decimals: 0)}{ofWhole}; {(g.Bound ? "at most " : string.Empty)}{Figures.Format(Math.Round(g.Then))} → {Figures.Format(Math.Round(g.Entry.Value))})")));
    }

    // The standard error of a sampled entry's change: each side's estimate errs by value/√samples; counts have none.
    private static double SamplingError(AttributionEntry now, AttributionEntry? before)
    {
        static double Error(AttributionEntry? e) => e is { Samples: > 0 } sampled ? sampled.Value / Math.Sqrt(sampled.Samples.Value) : 0;
        var a = Error(now);
        var b = Error(before);
        return Math.Sqrt((a * a) + (b * b));
    }
}
