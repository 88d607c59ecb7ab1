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

    // Student's t quantile for df degrees of freedom: the CDF in closed form for whole degrees of freedom (Abramowitz
    // and Stegun 26.7.3 and 26.7.4), inverted by bisection to 1e-9. Exact where an expansion is not: a sequential look at
    // 98.75% over four pairs of processes needs 4.177, and the Cornish-Fisher expansion gives 4.111.
    internal static double StudentQuantile(double p, int df)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(df);
        if (p is <= 0.5 or >= 1)
        {
            throw new ArgumentOutOfRangeException(nameof(p), p, "An upper quantile: 0.5 < p < 1.");
        }

        var (low, high) = (0.0, 1.0);
        while (StudentCdf(high, df) < p)
        {
            (low, high) = (high, high * 2);
        }

        while (high - low > 1e-9 * high)
        {
            var middle = (low + high) / 2;
            (low, high) = StudentCdf(middle, df) < p ? (middle, high) : (low, middle);
        }

        return (low + high) / 2;
    }

    // P(T <= t) for t >= 0: (1 + A(t|df)) / 2, where A is the probability of |T| < t.
    internal static double StudentCdf(double t, int df)
    {
        var theta = Math.Atan(t / Math.Sqrt(df));
        double cos2 = Math.Cos(theta) * Math.Cos(theta), sin = Math.Sin(theta);
        double a;
        if (df % 2 == 1)
        {
            // 2/π [θ + sinθ cosθ (1 + 2/3 cos²θ + ... + (2·4···(df-3))/(1·3···(df-2)) cos^(df-3)θ)]; θ alone for df = 1.
            var (sum, term) = (0.0, 1.0);
            for (var k = 1; k <= (df - 1) / 2; k++)
            {
                sum += term;
                term *= 2.0 * k / ((2.0 * k) + 1) * cos2;
            }

            a = 2 / Math.PI * (theta + (sin * Math.Cos(theta) * sum));
        }
        else
        {
            // sinθ (1 + 1/2 cos²θ + (1·3)/(2·4) cos⁴θ + ... + (1·3···(df-3))/(2·4···(df-2)) cos^(df-2)θ).
            var (sum, term) = (0.0, 1.0);
            for (var k = 1; k <= df / 2; k++)
            {
                sum += term;
                term *= ((2.0 * k) - 1) / (2.0 * k) * cos2;
            }

            a = sin * sum;
        }

        return (1 + a) / 2;
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
