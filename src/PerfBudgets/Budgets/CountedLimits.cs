using PerfBudgets.Statistics;

namespace PerfBudgets.Budgets;

/// <summary>
/// The arithmetic of a counted budget: the limit its recording and margins give, and what the figures of a set of runs
/// record. The budget file's reader checks every counted limit with it, and the tool records and proposes with it, so
/// it is shared with the tool as internal source: one copy, never public.
/// </summary>
/// <remarks>
/// A fraction alone cannot give a count whose noise comes in whole units room: a path recorded at 0 system calls gets
/// limit 0 whatever the fraction, and one stray call in a repetition of 4 operations (0.25/op) fails it. The absolute
/// margin (<c>marginAbsolute</c>) is that room, in the budget's unit; <c>perfbudgets calibrate</c> chooses it from the
/// spread it measured.
/// </remarks>
internal static class CountedLimits
{
    /// <summary>
    /// The limit of a budget of <paramref name="kind"/> recorded at <paramref name="recorded"/>:
    /// <c>recorded × (1 + margin) + marginAbsolute</c> rounded up to two decimals (counts per operation are averages
    /// over a repetition, so they are not whole numbers); for <see cref="BudgetKind.GrowthExponentMax"/>
    /// <c>recorded + margin + marginAbsolute</c> (the margin in exponent units: an exponent near 0 has no useful
    /// fraction) rounded up to three.
    /// </summary>
    public static double Limit(BudgetKind kind, double recorded, double margin, double marginAbsolute = 0)
    {
        ArgumentNullException.ThrowIfNull(kind);
        var growth = kind == BudgetKind.GrowthExponentMax;
        if (marginAbsolute == 0 && !growth)
        {
            return Math.Ceiling(recorded * (1 + margin) * 100) / 100;
        }

        // Rounded to a millionth before rounding up, so 2 + 0.5 is not taken as 2.5000000001 and raised a step.
        var scale = growth ? 1000 : 100;
        var exact = growth ? recorded + margin + marginAbsolute : (recorded * (1 + margin)) + marginAbsolute;
        return Math.Ceiling(Math.Round(exact * scale, 6)) / scale;
    }

    /// <summary>
    /// What a counted budget of <paramref name="kind"/> is recorded at from the figures of one run or more: their
    /// median, rounded to four decimals for a growth exponent and to two for a count, and the <see cref="Limit"/> of it
    /// and the margins.
    /// </summary>
    /// <param name="kind">The budget's kind.</param>
    /// <param name="counts">The figures the runs measured; at least one.</param>
    /// <param name="margin">The budget's margin (0.01 reads as 1%).</param>
    /// <param name="marginAbsolute">The budget's margin in its own unit.</param>
    public static (double Recorded, double Limit) Recording(BudgetKind kind, IReadOnlyList<double> counts, double margin, double marginAbsolute = 0)
    {
        ArgumentNullException.ThrowIfNull(kind);
        ArgumentNullException.ThrowIfNull(counts);
        ArgumentOutOfRangeException.ThrowIfZero(counts.Count);
        var recorded = Math.Round(Quantiles.Median(counts), kind == BudgetKind.GrowthExponentMax ? 4 : 2);
        return (recorded, Limit(kind, recorded, margin, marginAbsolute));
    }
}
