using System.Globalization;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnosing;

/// <summary>
/// Which methods make an operation's cost grow faster than its input: each method's instructions per item at the
/// two sizes of a <see cref="GrowthMeasurement"/>. A method whose count per item stays the same (or falls: a fixed
/// cost spread over more items) grows with the input or slower; one whose count per item rises with the size, or that
/// runs only at the large size, is what makes the exponent above 1. Counts, so a scan of the whole list per item shows
/// as exactly the instructions it adds.
/// </summary>
internal static class GrowthAttribution
{
    /// <summary>How much a method's count per item must rise between the sizes to be named: 5%.</summary>
    public const double RiseNamed = 0.05;

    /// <summary>
    /// The least a method must add over linear growth, as a share of the large size's count, to be named: 0.5%, well
    /// above what the servers' counts move between runs, so a name is never noise.
    /// </summary>
    public const double ExcessShareNamed = 0.005;

    /// <summary>
    /// The breakdown of <paramref name="growth"/>: every method by what it added at the large size over linear growth
    /// from the small size (instructions per operation), largest first, with its count per item at the large size as
    /// the value. The summary names the methods whose count per item rose by more than <see cref="RiseNamed"/> and
    /// added more than <see cref="ExcessShareNamed"/> of the large count: what a failure should be read for.
    /// </summary>
    /// <param name="growth">The operation at two sizes.</param>
    /// <param name="kept">How many entries the breakdown keeps.</param>
    /// <param name="named">How many methods the summary names.</param>
    public static Attribution From(GrowthMeasurement growth, int kept = CountAttribution.Kept, int named = 5)
    {
        ArgumentNullException.ThrowIfNull(growth);
        var rows = Rows(growth);
        var unit = $"instructions/{growth.Item}";
        var whole = growth.Large.InstructionsPerOperation;
        var entries = rows.Take(kept)
            .Select(r => new AttributionEntry(r.Method, Math.Round(r.LargePerItem, 2), unit, whole > 0 ? r.LargePerItem * growth.LargeSize / whole : null))
            .ToList();
        var grown = FasterThanInput(growth).Take(named).ToList();
        var sizes = string.Create(CultureInfo.InvariantCulture, $"{growth.SmallSize:#,0.##} → {growth.LargeSize:#,0.##} {growth.Item}s");
        var summary = grown.Count == 0
            ? string.Create(CultureInfo.InvariantCulture, $"no method's count per {growth.Item} rose by more than {RiseNamed * 100:0}% from {sizes}")
            : $"grew faster than the input ({sizes}), per {growth.Item}: " + string.Join(", ", grown.Select(Describe));
        return new Attribution(summary, entries,
            $"Instructions per {growth.Item} of each method (exclusive) at the large size, ordered by what it added over linear growth from the small size; counted by Callgrind in the repetition with the fewest at each size.");
    }

    /// <summary>
    /// The methods whose count per item rose by more than <see cref="RiseNamed"/> between the sizes and added more
    /// than <see cref="ExcessShareNamed"/> of the large size's count over linear growth, largest addition first.
    /// </summary>
    public static IEnumerable<MethodGrowth> FasterThanInput(GrowthMeasurement growth)
    {
        ArgumentNullException.ThrowIfNull(growth);
        var floor = ExcessShareNamed * growth.Large.InstructionsPerOperation;
        return Rows(growth).Where(r => r.Excess > floor && r.LargePerItem > r.SmallPerItem * (1 + RiseNamed));
    }

    private static string Describe(MethodGrowth m) => string.Create(CultureInfo.InvariantCulture,
        $"{m.Method} {Figures.Format(Math.Round(m.SmallPerItem, 2))} → {Figures.Format(Math.Round(m.LargePerItem, 2))} (+{Figures.Format(Math.Round(m.Excess))} instructions/op over linear)");

    // Every method of either size, by what it added over linear growth, largest first.
    private static List<MethodGrowth> Rows(GrowthMeasurement growth)
    {
        var small = growth.Small.Methods.GroupBy(m => m.Method, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Sum(m => m.PerOperation), StringComparer.Ordinal);
        var large = growth.Large.Methods.GroupBy(m => m.Method, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Sum(m => m.PerOperation), StringComparer.Ordinal);
        return small.Keys.Union(large.Keys, StringComparer.Ordinal)
            .Select(name =>
            {
                var atSmall = small.GetValueOrDefault(name);
                var atLarge = large.GetValueOrDefault(name);
                return new MethodGrowth(name, atSmall / growth.SmallSize, atLarge / growth.LargeSize, atLarge - (atSmall * growth.SizeRatio));
            })
            .OrderByDescending(r => r.Excess)
            .ThenBy(r => r.Method, StringComparer.Ordinal)
            .ToList();
    }
}
