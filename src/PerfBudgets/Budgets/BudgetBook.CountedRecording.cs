namespace PerfBudgets.Budgets;

// The arithmetic of a counted budget's recording: the limit its recording and margin give, and what a set of runs
// records. The reader checks every counted limit with it, and the tool's recorder and proposer write with it.
public sealed partial class BudgetBook
{
    /// <summary>
    /// The limit of a counted budget: <paramref name="recorded"/> × (1 + <paramref name="margin"/>), rounded up to two
    /// decimals (counts per operation are averages over a repetition, so they are not whole numbers).
    /// </summary>
    public static double CountedLimit(double recorded, double margin) => Math.Ceiling(recorded * (1 + margin) * 100) / 100;

    /// <summary>
    /// The limit of a counted budget of <paramref name="kind"/>: for <see cref="BudgetKind.GrowthExponentMax"/>,
    /// <paramref name="recorded"/> + <paramref name="margin"/> (the margin in exponent units: an exponent near 0 has
    /// no useful fraction), rounded up to three decimals; for the other counted kinds <see cref="CountedLimit(double, double)"/>.
    /// </summary>
    public static double CountedLimit(BudgetKind kind, double recorded, double margin) =>
        kind == BudgetKind.GrowthExponentMax
            ? Math.Ceiling(Math.Round((recorded + margin) * 1000, 6)) / 1000
            : CountedLimit(recorded, margin);

    /// <summary>
    /// What a counted budget of <paramref name="kind"/> is recorded at from the figures of one run or more: their
    /// median, rounded to four decimals for a growth exponent and to two for a count, and the limit
    /// <see cref="CountedLimit(BudgetKind, double, double)"/> of it and <paramref name="margin"/>.
    /// </summary>
    public static (double Recorded, double Limit) CountedRecording(BudgetKind kind, IReadOnlyList<double> counts, double margin)
    {
        ArgumentNullException.ThrowIfNull(kind);
        ArgumentNullException.ThrowIfNull(counts);
        ArgumentOutOfRangeException.ThrowIfZero(counts.Count);
        var recorded = Math.Round(Median(counts), kind == BudgetKind.GrowthExponentMax ? 4 : 2);
        return (recorded, CountedLimit(kind, recorded, margin));
    }

    /// <summary>
    /// What a counted budget is recorded at from the counts of one run or more: <c>recorded</c> is their median rounded
    /// to two decimals, and the limit <see cref="CountedLimit(double, double)"/> of it and <paramref name="margin"/>.
    /// </summary>
    /// <param name="counts">The counts per operation the runs measured; at least one.</param>
    /// <param name="margin">The budget's margin (0.01 reads as 1%).</param>
    public static (double Recorded, double Limit) CountedRecording(IReadOnlyList<double> counts, double margin)
    {
        ArgumentNullException.ThrowIfNull(counts);
        ArgumentOutOfRangeException.ThrowIfZero(counts.Count);
        var recorded = Math.Round(Median(counts), 2);
        return (recorded, CountedLimit(recorded, margin));
    }

    /// <summary>The middle value, or the mean of the two middle values of an even count.</summary>
    public static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToList();
        var middle = sorted.Count / 2;
        return sorted.Count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
