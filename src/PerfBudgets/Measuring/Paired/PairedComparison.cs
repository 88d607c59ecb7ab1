using PerfBudgets.Reporting;
using PerfBudgets.Statistics;

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

    // A copy of source's rounds and estimate with another description, pairs of processes, interval and stop.
    private PairedComparison(PairedComparison source, string? baseDescription, IReadOnlyList<double> processPairRatios, double lower, double upper,
        double confidence, SequentialStop? stop, double? ratio = null)
    {
        Figure = source.Figure;
        BaseRounds = source.BaseRounds;
        HeadRounds = source.HeadRounds;
        Confidence = confidence;
        BaseDescription = baseDescription;
        WarmUpPairs = source.WarmUpPairs;
        Ratio = ratio ?? source.Ratio;
        ProcessPairRatios = processPairRatios;
        (Lower, Upper) = (lower, upper);
        Stop = stop;
    }

    // A comparison that was not run: head ÷ base is 1 by construction, for the reason given.
    private PairedComparison(string figure, string notRunBecause)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(figure);
        ArgumentException.ThrowIfNullOrWhiteSpace(notRunBecause);
        Figure = figure;
        BaseRounds = [];
        HeadRounds = [];
        Confidence = 1;
        NotRunBecause = notRunBecause;
        (Ratio, Lower, Upper) = (1, 1, 1);
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

    /// <summary>
    /// Head ÷ base: the Hodges-Lehmann estimate over the pairs' ratios (pooled over three pairs of processes or more, the
    /// geometric mean of theirs, a fifth trimmed from each end from five pairs); NaN with fewer than six usable pairs.
    /// </summary>
    public double Ratio { get; }

    /// <summary>The interval's lower end.</summary>
    public double Lower { get; }

    /// <summary>The interval's upper end.</summary>
    public double Upper { get; }

    /// <summary>Pairs run and thrown away before these, until both sides were steady.</summary>
    public int WarmUpPairs { get; init; }

    /// <summary>
    /// Head ÷ base of each pair of processes the rounds ran in, when there were several
    /// (<see cref="PairedRoundsOptions.ProcessPairs"/>); empty for one.
    /// </summary>
    public IReadOnlyList<double> ProcessPairRatios { get; } = [];

    /// <summary>
    /// Why no round ran, where the head's build cannot differ from the base's (<see cref="SameInputs"/>); null for a
    /// comparison that was measured.
    /// </summary>
    public string? NotRunBecause { get; }

    /// <summary>
    /// Where a comparison run adaptively under a limit stopped (<see cref="PairedRoundsOptions.MaxProcessPairs"/>), and
    /// whether its interval had decided; null for a comparison of a fixed size.
    /// </summary>
    internal SequentialStop? Stop { get; }

    /// <summary>The median of the base build's rounds.</summary>
    public double BaseMedian => Quantiles.Median(BaseRounds);

    /// <summary>The median of the head build's rounds.</summary>
    public double HeadMedian => Quantiles.Median(HeadRounds);

    /// <summary>
    /// A copy paired with the base's description: the round functions do not know which commit the base was.
    /// </summary>
    public PairedComparison WithBase(string baseDescription) =>
        NotRunBecause is null ? new(this, baseDescription, ProcessPairRatios, Lower, Upper, Confidence, Stop, Ratio) : this;

    // This comparison, pooled at a look's confidence, reported at the design's: the look's interval is the wider one.
    internal PairedComparison StoppedAt(SequentialStop stop, double confidence) =>
        new(this, BaseDescription, ProcessPairRatios, Lower, Upper, confidence, stop, Ratio);

    /// <summary>
    /// The comparison of a head whose build cannot differ from the base's (<see cref="BaseBuild.SameInputs"/> gave the
    /// reason): nothing is run, head ÷ base is 1 by construction with an interval of 1 to 1, and the report says why.
    /// </summary>
    /// <param name="figure">What the rounds would have measured, with its unit.</param>
    /// <param name="reason">Why the builds cannot differ, as <see cref="BaseBuild.SameInputs"/> says it.</param>
    public static PairedComparison SameInputs(string figure, string reason) => new(figure, reason);

    /// <summary>
    /// The rounds of several pairs of processes as one comparison. From three pairs the pair of processes is the unit,
    /// since each carries luck of its own that its rounds cannot show: the estimate is the geometric mean of the pairs'
    /// own estimates and the interval Student's t over their logarithms; from five pairs, a fifth of them (rounded
    /// down) is trimmed from each end and the interval is Yuen's trimmed t, so that one pair a neighbour disturbed for
    /// its whole life does not set the width. With two, the rounds' interval over all of them.
    /// </summary>
    /// <remarks>
    /// For comparisons whose processes the caller starts (two servers under <see cref="PairedHttpLoad"/>, two apps
    /// under <see cref="PairedRounds"/>): run the same comparison in fresh pairs of processes and pool them.
    /// <see cref="PairedWorkloads"/> pools its own.
    /// </remarks>
    /// <param name="byProcessPair">One comparison of the same figure per pair of processes, at the same confidence.</param>
    /// <exception cref="ArgumentException">No comparison, or comparisons of different figures or confidences.</exception>
    public static PairedComparison Pooled(IReadOnlyList<PairedComparison> byProcessPair)
    {
        ArgumentNullException.ThrowIfNull(byProcessPair);
        return Pooled(byProcessPair, byProcessPair.Count == 0 ? 0 : byProcessPair[0].Confidence);
    }

    // As Pooled, with the interval at intervalConfidence: a sequential look's, narrower in error than the design's.
    internal static PairedComparison Pooled(IReadOnlyList<PairedComparison> byProcessPair, double intervalConfidence)
    {
        ArgumentNullException.ThrowIfNull(byProcessPair);
        if (byProcessPair.Count == 0)
        {
            throw new ArgumentException("Pooling needs at least one pair of processes' comparison.", nameof(byProcessPair));
        }

        if (byProcessPair.Any(c => c.NotRunBecause is not null))
        {
            return byProcessPair.All(c => c.NotRunBecause is not null)
                ? byProcessPair[0]
                : throw new ArgumentException("A comparison that was not run (SameInputs) cannot be pooled with measured ones.", nameof(byProcessPair));
        }

        if (byProcessPair.Any(c => c.Figure != byProcessPair[0].Figure || c.Confidence != byProcessPair[0].Confidence))
        {
            throw new ArgumentException($"Pooling compares one figure at one confidence: {string.Join(", ", byProcessPair.Select(c => $"{c.Figure} at {c.Confidence}").Distinct())}.", nameof(byProcessPair));
        }

        var first = byProcessPair[0];
        var all = new PairedComparison(first.Figure, [.. byProcessPair.SelectMany(c => c.BaseRounds)], [.. byProcessPair.SelectMany(c => c.HeadRounds)], intervalConfidence)
        {
            WarmUpPairs = byProcessPair.Sum(c => c.WarmUpPairs),
        };
        if (byProcessPair.Count == 1)
        {
            return all;
        }

        var ratios = byProcessPair.Select(c => c.Ratio).ToList();
        if (!OverPairsOfProcesses(ratios))
        {
            return new PairedComparison(all, all.BaseDescription, ratios, all.Lower, all.Upper, intervalConfidence, stop: null);
        }

        // The pair of processes is the unit: its rounds share its luck, so pooling them as if each were independent
        // gives an interval that is too narrow where the pairs disagree and too wide where a few rounds were disturbed.
        var (centre, half) = TrimmedT(ratios.Select(r => Math.Log(r)).ToList(), intervalConfidence);
        return new PairedComparison(all, all.BaseDescription, ratios, Math.Exp(centre - half), Math.Exp(centre + half), intervalConfidence, stop: null, Math.Exp(centre));
    }

    // A fifth of the pairs of processes, rounded down, is trimmed from each end: none of 3 or 4, one of 5 to 9, two of
    // 10 to 14, three of 15 to 19.
    internal static int Trimmed(int pairs) => pairs / 5;

    // Yuen's trimmed t (Yuen, 1974; Wilcox, "Introduction to Robust Estimation and Hypothesis Testing", 4.3): the
    // trimmed mean of the logarithms, its standard error from their winsorized variance, and Student's t at h - 1
    // degrees of freedom for the h values kept. With nothing trimmed it is Student's t. One pair of processes that read
    // 0.643 beside two busy loops, among fifteen that read 0.98-1.09, widened Student's t over all sixteen past both 1
    // and the limit; trimmed, it counts only as the edge the winsorized variance holds it at.
    private static (double Centre, double HalfWidth) TrimmedT(List<double> logs, double confidence)
    {
        logs.Sort();
        var n = logs.Count;
        var g = Trimmed(n);
        var kept = n - (2 * g);
        var centre = logs.Skip(g).Take(kept).Average();
        var winsorized = logs.Select((l, i) => i < g ? logs[g] : i >= n - g ? logs[n - g - 1] : l).ToList();
        var winsorizedMean = winsorized.Average();
        var winsorizedSquares = winsorized.Sum(l => (l - winsorizedMean) * (l - winsorizedMean));
        var standardError = Math.Sqrt(winsorizedSquares / (kept * (kept - 1.0)));
        return (centre, PairedInterval.StudentQuantile(1 - ((1 - confidence) / 2), kept - 1) * standardError);
    }

    // From three pairs of processes, each with an estimate, their spread is estimated; with fewer, or with a pair that
    // gave none, the rounds' interval is all there is.
    private static bool OverPairsOfProcesses(IReadOnlyList<double> ratios) =>
        ratios.Count >= 3 && ratios.All(r => r > 0 && double.IsFinite(r));

    private static string OverPairsText(int pairs) => Trimmed(pairs) is var g and > 0
        ? $"Yuen's trimmed t over {pairs} pairs of processes, {g} trimmed from each end, the trimmed geometric mean of their Hodges-Lehmann estimates"
        : $"Student's t over {pairs} pairs of processes, the geometric mean of their Hodges-Lehmann estimates";

    /// <summary>The ratio, its interval and both builds' figures, on one line.</summary>
    public override string ToString() => NotRunBecause is not null
        ? $"not run: {NotRunBecause}; head/base is 1 by construction"
        : $"head/base {Figures.Format(Ratio)}, {Figures.Format(Confidence * 100)}% interval {Figures.Format(Lower)}-{Figures.Format(Upper)} " +
        $"({(OverPairsOfProcesses(ProcessPairRatios) ? OverPairsText(ProcessPairRatios.Count) : "Hodges-Lehmann")} " +
        $"over {BaseRounds.Count} pairs after {WarmUpPairs} of warm-up); {Figure}: base median {Figures.Format(BaseMedian)} " +
        $"({Figures.Format(BaseRounds.Min())}-{Figures.Format(BaseRounds.Max())}), head median {Figures.Format(HeadMedian)} " +
        $"({Figures.Format(HeadRounds.Min())}-{Figures.Format(HeadRounds.Max())})" +
        (ProcessPairRatios.Count == 0 ? string.Empty : $"; over {ProcessPairRatios.Count} pairs of processes, each head/base {string.Join(" ", ProcessPairRatios.Select(r => Figures.Format(r)))}") +
        (Stop is null ? string.Empty : $"; {Stop}") +
        (BaseDescription is null ? string.Empty : $"; base {BaseDescription}");
}
