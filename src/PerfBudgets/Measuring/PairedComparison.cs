using PerfBudgets.Reporting;

namespace PerfBudgets.Measuring;

/// <summary>
/// One figure measured on the base build and on the head build in alternating rounds of the same run
/// (<see cref="PairedRounds"/>): head ÷ base, its confidence interval, and both builds' own figures beside it.
/// </summary>
public sealed class PairedComparison
{
    internal PairedComparison(string figure, IReadOnlyList<double> baseRounds, IReadOnlyList<double> headRounds, double confidence, string? baseDescription = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(figure);
        Figure = figure;
        BaseRounds = baseRounds;
        HeadRounds = headRounds;
        Confidence = confidence;
        BaseDescription = baseDescription;
        (Ratio, Lower, Upper) = PairedInterval.Ratio(baseRounds, headRounds, confidence);
    }

    /// <summary>What each round measured, with its unit (<c>requests/s</c>, <c>CPU µs/request</c>).</summary>
    public string Figure { get; }

    /// <summary>The base build's figure in each measured round, in the order they ran.</summary>
    public IReadOnlyList<double> BaseRounds { get; }

    /// <summary>The head build's figure in each measured round, paired with <see cref="BaseRounds"/> by index.</summary>
    public IReadOnlyList<double> HeadRounds { get; }

    /// <summary>The interval's two-sided confidence.</summary>
    public double Confidence { get; }

    /// <summary>Which commit the base was, and why that one (<see cref="BaseBuild.Description"/>), when known.</summary>
    public string? BaseDescription { get; }

    /// <summary>Head ÷ base: the Hodges-Lehmann estimate over the pairs' ratios; NaN with fewer than six usable pairs.</summary>
    public double Ratio { get; }

    /// <summary>The interval's lower end.</summary>
    public double Lower { get; }

    /// <summary>The interval's upper end.</summary>
    public double Upper { get; }

    /// <summary>Pairs run and thrown away before these, until both sides were steady.</summary>
    public int WarmUpPairs { get; init; }

    /// <summary>The median of the base build's rounds.</summary>
    public double BaseMedian => Median(BaseRounds);

    /// <summary>The median of the head build's rounds.</summary>
    public double HeadMedian => Median(HeadRounds);

    /// <summary>
    /// A copy paired with the base's description: the round functions do not know which commit the base was.
    /// </summary>
    public PairedComparison WithBase(string baseDescription) => new(Figure, BaseRounds, HeadRounds, Confidence, baseDescription) { WarmUpPairs = WarmUpPairs };

    /// <summary>The ratio, its interval and both builds' figures, on one line.</summary>
    public override string ToString() =>
        $"head/base {Figures.Format(Ratio)}, {Figures.Format(Confidence * 100)}% interval {Figures.Format(Lower)}-{Figures.Format(Upper)} " +
        $"(Hodges-Lehmann over {BaseRounds.Count} pairs after {WarmUpPairs} of warm-up); {Figure}: base median {Figures.Format(BaseMedian)} " +
        $"({Figures.Format(BaseRounds.Min())}-{Figures.Format(BaseRounds.Max())}), head median {Figures.Format(HeadMedian)} " +
        $"({Figures.Format(HeadRounds.Min())}-{Figures.Format(HeadRounds.Max())})" +
        (BaseDescription is null ? string.Empty : $"; base {BaseDescription}");

    // The book's median (the mean of the middle two of an even count); NaN for no rounds.
    private static double Median(IReadOnlyList<double> values) => values.Count == 0 ? double.NaN : Budgets.BudgetBook.Median(values);
}
