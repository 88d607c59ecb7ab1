namespace PerfBudgets.Measuring;

/// <summary>
/// Measures the base build and the head build in short rounds of one run on one machine, and gives each figure as
/// head ÷ base with a confidence interval (<see cref="PairedComparison"/>). A neighbour that slows the machine for a
/// second slows both builds' rounds of that second: pairs ratio it away where an absolute floor cannot.
/// </summary>
/// <remarks>
/// Two designs. <see cref="CompareTogetherAsync"/> runs both builds at once in each round (a duet: Bulej et al., ICPE
/// 2020), so whatever the machine does during a round it does to both; it suits servers, which can both be loaded at
/// once. <see cref="CompareAsync"/> runs them one after the other in ABBA order (base first in even pairs, head first
/// in odd ones), so a drift that favours whichever runs second, or a machine that slows through the run, weighs on both
/// alike; it suits what cannot share the machine (a start, a single-threaded operation timed on its own clock).
/// Warm-up rounds are thrown away until each side is steady (<see cref="PairedRoundsOptions.MaxWarmUpPairs"/>).
/// </remarks>
public static class PairedRounds
{
    /// <summary>
    /// Runs <paramref name="round"/> on each side in ABBA order, warm-up pairs first, and returns one comparison per
    /// name in <paramref name="figures"/>, in that order.
    /// </summary>
    /// <param name="figures">What each position of a round's answer is, with its unit; the first is watched for steadiness.</param>
    /// <param name="round">Measures one build once; answers one figure per name in <paramref name="figures"/>.</param>
    /// <param name="options">Pairs, warm-up and confidence.</param>
    /// <param name="cancellationToken">Cancels between rounds and is passed to each.</param>
    public static Task<IReadOnlyList<PairedComparison>> CompareAsync(IReadOnlyList<string> figures,
        Func<PairedSide, CancellationToken, Task<IReadOnlyList<double>>> round, PairedRoundsOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(round);
        return RunAsync(figures, async (pair, ct) =>
        {
            var answers = new Dictionary<PairedSide, IReadOnlyList<double>>();
            foreach (var side in OrderOf(pair))
            {
                ct.ThrowIfCancellationRequested();
                answers[side] = await round(side, ct).ConfigureAwait(false);
            }

            return (answers[PairedSide.Base], answers[PairedSide.Head]);
        }, options, cancellationToken);
    }

    /// <summary>
    /// Runs <paramref name="round"/>, which measures both builds at once, warm-up rounds first, and returns one
    /// comparison per name in <paramref name="figures"/>, in that order.
    /// </summary>
    /// <param name="figures">What each position of a side's answer is, with its unit; the first is watched for steadiness.</param>
    /// <param name="round">Measures both builds at once; answers each side's figures.</param>
    /// <param name="options">Pairs, warm-up and confidence.</param>
    /// <param name="cancellationToken">Cancels between rounds and is passed to each.</param>
    public static Task<IReadOnlyList<PairedComparison>> CompareTogetherAsync(IReadOnlyList<string> figures,
        Func<CancellationToken, Task<(IReadOnlyList<double> Base, IReadOnlyList<double> Head)>> round, PairedRoundsOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(round);
        return RunAsync(figures, (_, ct) => round(ct), options, cancellationToken);
    }

    /// <summary>As <see cref="CompareAsync"/>, for one figure measured synchronously.</summary>
    public static PairedComparison Compare(string figure, Func<PairedSide, double> round, PairedRoundsOptions options)
    {
        ArgumentNullException.ThrowIfNull(round);
        return CompareAsync([figure], (side, _) => Task.FromResult<IReadOnlyList<double>>([round(side)]), options, CancellationToken.None)
            .GetAwaiter().GetResult()[0];
    }

    // ABBA: base, head / head, base / base, head ...
    internal static PairedSide[] OrderOf(int pair) =>
        pair % 2 == 0 ? [PairedSide.Base, PairedSide.Head] : [PairedSide.Head, PairedSide.Base];

    private static async Task<IReadOnlyList<PairedComparison>> RunAsync(IReadOnlyList<string> figures,
        Func<int, CancellationToken, Task<(IReadOnlyList<double> Base, IReadOnlyList<double> Head)>> pairOf, PairedRoundsOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(figures);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        if (figures.Count == 0)
        {
            throw new ArgumentException("Name at least one figure.", nameof(figures));
        }

        var baseRounds = figures.Select(_ => new List<double>(options.Pairs)).ToArray();
        var headRounds = figures.Select(_ => new List<double>(options.Pairs)).ToArray();
        var warmBase = new List<double>();
        var warmHead = new List<double>();
        var warmUp = 0;
        for (var pair = 0; baseRounds[0].Count < options.Pairs; pair++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var (b, h) = await pairOf(pair, cancellationToken).ConfigureAwait(false);
            if (b.Count != figures.Count || h.Count != figures.Count)
            {
                throw new InvalidOperationException($"The round answered {b.Count} and {h.Count} figures for {figures.Count} names ({string.Join(", ", figures)}).");
            }

            var warming = baseRounds[0].Count == 0 && (warmUp < options.WarmUpPairs || (warmUp < options.MaxWarmUpPairs && !(Steady(warmBase, options.SteadyWithin) && Steady(warmHead, options.SteadyWithin))));
            if (warming)
            {
                warmUp++;
                warmBase.Add(b[0]);
                warmHead.Add(h[0]);
                continue;
            }

            for (var i = 0; i < figures.Count; i++)
            {
                baseRounds[i].Add(b[i]);
                headRounds[i].Add(h[i]);
            }
        }

        return figures.Select((name, i) => new PairedComparison(name, baseRounds[i], headRounds[i], options.Confidence) { WarmUpPairs = warmUp }).ToArray();
    }

    // The last five rounds within `within` of their median: three could be a plateau of the JIT's first tier.
    internal static bool Steady(IReadOnlyList<double> rounds, double within)
    {
        if (rounds.Count < SteadyRounds)
        {
            return false;
        }

        var last = rounds.Skip(rounds.Count - SteadyRounds).Order().ToArray();
        var median = last[SteadyRounds / 2];
        return median > 0 && last[0] >= median * (1 - within) && last[^1] <= median * (1 + within);
    }

    private const int SteadyRounds = 5;
}
