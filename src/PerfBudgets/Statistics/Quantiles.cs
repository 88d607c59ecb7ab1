namespace PerfBudgets.Statistics;

/// <summary>
/// The package's medians and quantiles, one definition of each, shared as internal source by the packages that report
/// them (as Kestrel shares its HPACK), so that a p99 or a median means the same from every meter and tool.
/// </summary>
/// <remarks>
/// Two quantiles, for two uses. A tail (p99, p99.9) is <see cref="NearestRank{T}"/>: a value some request really had,
/// read the same way from the load runner's HdrHistogram (whose own reading rounds the rank instead, one request
/// lower for some counts), so the load runner's p99 and a meter's compare. A central estimate (a quartile of batch costs) is <see cref="Interpolated"/>, Hyndman and Fan's type 7, the
/// default of R and NumPy: it moves smoothly with the data, which a statistic of a few dozen batches needs. The median
/// is both at 0.5 for an odd count and the mean of the two middle values for an even one.
/// </remarks>
internal static class Quantiles
{
    /// <summary>The middle value, or the mean of the two middle values of an even count; NaN when there is none.</summary>
    public static double Median(IEnumerable<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var sorted = values.Order().ToArray();
        if (sorted.Length == 0)
        {
            return double.NaN;
        }

        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /// <summary>The middle time, or the mean of the two middle times of an even count.</summary>
    /// <exception cref="ArgumentException">There is no time.</exception>
    public static TimeSpan Median(IEnumerable<TimeSpan> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var sorted = values.Order().ToArray();
        if (sorted.Length == 0)
        {
            throw new ArgumentException("No values.", nameof(values));
        }

        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /// <summary>
    /// The quantile <paramref name="q"/> (0 ≤ q ≤ 1) of <paramref name="values"/>, interpolated linearly between the
    /// two closest ranks (type 7); NaN when there is no value.
    /// </summary>
    public static double Interpolated(IEnumerable<double> values, double q)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (!(q >= 0 && q <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(q), q, "A quantile is in [0, 1].");
        }

        var sorted = values.Order().ToArray();
        if (sorted.Length == 0)
        {
            return double.NaN;
        }

        var position = q * (sorted.Length - 1);
        var lower = (int)Math.Floor(position);
        var upper = Math.Min(lower + 1, sorted.Length - 1);
        return sorted[lower] + ((sorted[upper] - sorted[lower]) * (position - lower));
    }

    /// <summary>
    /// The nearest-rank quantile <paramref name="q"/> (0 &lt; q ≤ 1) of ascending <paramref name="sorted"/> values: the
    /// smallest value that at least <paramref name="q"/> of them do not exceed.
    /// </summary>
    /// <exception cref="ArgumentException">There is no value.</exception>
    public static T NearestRank<T>(IReadOnlyList<T> sorted, double q)
    {
        ArgumentNullException.ThrowIfNull(sorted);
        if (sorted.Count == 0)
        {
            throw new ArgumentException("No values.", nameof(sorted));
        }

        return sorted[(int)Rank(sorted.Count, q) - 1];
    }

    /// <summary>
    /// The 1-based rank of the nearest-rank quantile <paramref name="q"/> (0 &lt; q ≤ 1) of <paramref name="count"/>
    /// values, ceil(q × count): for a reader of counted values, such as a histogram, that cannot hand over a sorted list.
    /// </summary>
    public static long Rank(long count, double q)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        if (!(q > 0 && q <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(q), q, "A quantile is in (0, 1].");
        }

        // The small epsilon keeps 0.99 * 100 from rounding up to rank 100.
        return Math.Clamp((long)Math.Ceiling((q * count) - 1e-9), 1, count);
    }
}
