namespace PerfBudgets.Measuring;

/// <summary>
/// The Hodges-Lehmann estimate of a paired ratio and its distribution-free confidence interval (the Wilcoxon
/// signed-rank interval, Hollander and Wolfe, Nonparametric Statistical Methods, 3rd ed., §3.2 and 3.3).
/// </summary>
/// <remarks>
/// Each pair gives d = ln(head ÷ base). The estimate is the median of the n(n+1)/2 Walsh averages (dᵢ + dⱼ) / 2, i ≤ j;
/// the interval runs from the C-th smallest to the C-th largest of them, with C from the signed-rank statistic's normal
/// approximation. It assumes only that the differences are symmetric about their centre, not that they are normal: a
/// round that a neighbour disturbed moves one Walsh average in n, not the mean. Logarithms make the interval a ratio's
/// (head twice as fast and half as fast are as far from 1) and exponentiating them back keeps it one.
/// </remarks>
internal static class PairedInterval
{
    /// <summary>The estimate and interval of head ÷ base from paired figures, at a two-sided <paramref name="confidence"/>.</summary>
    public static (double Estimate, double Lower, double Upper) Ratio(IReadOnlyList<double> baseFigures, IReadOnlyList<double> headFigures, double confidence)
    {
        ArgumentNullException.ThrowIfNull(baseFigures);
        ArgumentNullException.ThrowIfNull(headFigures);
        if (baseFigures.Count != headFigures.Count)
        {
            throw new ArgumentException($"{baseFigures.Count} base figures and {headFigures.Count} head figures: a pair needs one of each.", nameof(headFigures));
        }

        if (confidence is <= 0.5 or >= 1)
        {
            throw new ArgumentOutOfRangeException(nameof(confidence), confidence, "A two-sided confidence between 0.5 and 1.");
        }

        var logs = new List<double>(baseFigures.Count);
        for (var i = 0; i < baseFigures.Count; i++)
        {
            if (baseFigures[i] > 0 && headFigures[i] > 0 && double.IsFinite(baseFigures[i]) && double.IsFinite(headFigures[i]))
            {
                logs.Add(Math.Log(headFigures[i] / baseFigures[i]));
            }
        }

        var n = logs.Count;
        if (n < MinimumPairs)
        {
            return (double.NaN, double.NaN, double.NaN);
        }

        var walsh = new double[n * (n + 1) / 2];
        var k = 0;
        for (var i = 0; i < n; i++)
        {
            for (var j = i; j < n; j++)
            {
                walsh[k++] = (logs[i] + logs[j]) / 2;
            }
        }

        Array.Sort(walsh);
        var m = walsh.Length;
        var median = m % 2 == 1 ? walsh[m / 2] : (walsh[(m / 2) - 1] + walsh[m / 2]) / 2;
        var c = CriticalRank(n, confidence);
        return (Math.Exp(median), Math.Exp(walsh[c - 1]), Math.Exp(walsh[m - c]));
    }

    /// <summary>Fewer pairs than this give no interval: at 6 the widest 95% interval is the whole range.</summary>
    public const int MinimumPairs = 6;

    // C, 1-based: the rank of the Walsh average that bounds the interval, n(n+1)/4 - z·sd rounded down, at least 1.
    internal static int CriticalRank(int n, double confidence)
    {
        var mean = n * (n + 1) / 4.0;
        var sd = Math.Sqrt(n * (n + 1) * ((2.0 * n) + 1) / 24.0);
        var z = NormalQuantile(1 - ((1 - confidence) / 2));
        return Math.Max(1, (int)Math.Floor(mean - (z * sd) + 0.5));
    }

    // Student's t quantile for df degrees of freedom, by the Cornish-Fisher expansion around the normal quantile to the
    // third order (Abramowitz and Stegun 26.7.5): within 1% of the table from 3 degrees of freedom at 95% (3.16 for 3.18),
    // and larger below, where no estimate of a spread from two or three values should be trusted anyway.
    internal static double StudentQuantile(double p, int df)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(df);
        var z = NormalQuantile(p);
        double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
        return z + ((z3 + z) / (4.0 * df)) + (((5 * z5) + (16 * z3) + (3 * z)) / (96.0 * df * df)) + (((3 * z7) + (19 * z5) + (17 * z3) - (15 * z)) / (384.0 * df * df * df));
    }

    // Acklam's rational approximation of the standard normal quantile (relative error below 1.2e-9), for 0.5 < p < 1.
    internal static double NormalQuantile(double p)
    {
        double[] a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00];
        double[] b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01];
        double[] c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00];
        double[] d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];
        if (p > 0.97575)
        {
            var t = Math.Sqrt(-2 * Math.Log(1 - p));
            return -(((((((c[0] * t) + c[1]) * t) + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) / ((((((d[0] * t) + d[1]) * t) + d[2]) * t + d[3]) * t + 1);
        }

        var q = p - 0.5;
        var r = q * q;
        return (((((((a[0] * r) + a[1]) * r) + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (((((((b[0] * r) + b[1]) * r) + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
}
