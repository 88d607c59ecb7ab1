using PerfBudgets.Budgets;

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
        return RunAsync(figures, Alternately(round), options, cancellationToken);
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

    /// <summary>
    /// Runs <paramref name="round"/> on each side in ABBA order, warm-up pairs first, until the interval of head ÷ base
    /// decides <paramref name="budget"/>: it looks after every <see cref="PairedRoundsOptions.ProcessPairsPerLook"/>
    /// measured pairs, up to <see cref="PairedRoundsOptions.MaxProcessPairs"/>, and stops as soon as the interval lies
    /// wholly on the passing side of the limit or fails the budget under its rule; while it straddles, it runs on to the
    /// cap. Each look's interval is at the options' confidence split evenly among the looks (Bonferroni), so the interval
    /// it stops with holds at that confidence wherever it stopped (<see cref="SequentialPairs"/> has the design).
    /// </summary>
    /// <remarks>
    /// For rounds that each start their own processes (an app's start: every pair of rounds is a pair of fresh
    /// processes, independent of the others). Rounds inside one pair of long-lived processes share that pair's luck,
    /// which more rounds do not cancel: compare those over pairs of processes (<see cref="PairedWorkloads"/>, or
    /// <see cref="PairedComparison.Pooled(IReadOnlyList{PairedComparison})"/> over fresh servers).
    /// <see cref="PairedRoundsOptions.Pairs"/> is not read: the looks set how many pairs run.
    /// </remarks>
    /// <param name="figure">What a round measures, with its unit.</param>
    /// <param name="budget">The paired budget the comparison is judged by (its kind, limit and rule), from the gate's book.</param>
    /// <param name="round">Measures one build once, in processes of its own.</param>
    /// <param name="options">The looks and their cap, warm-up and confidence.</param>
    /// <param name="cancellationToken">Cancels between rounds and is passed to each.</param>
    /// <exception cref="ArgumentException"><paramref name="budget"/> is not a paired budget.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A look of fewer pairs than an interval needs (6), or a cap below one look.</exception>
    public static async Task<PairedComparison> CompareUntilDecidedAsync(string figure, Budget budget,
        Func<PairedSide, CancellationToken, Task<double>> round, PairedRoundsOptions options, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(figure);
        ArgumentNullException.ThrowIfNull(budget);
        ArgumentNullException.ThrowIfNull(round);
        ArgumentNullException.ThrowIfNull(options);
        var decision = PairedDecision.OfPaired(budget, "rounds", nameof(budget));
        options.Validate();
        ArgumentOutOfRangeException.ThrowIfLessThan(options.ProcessPairsPerLook, PairedInterval.MinimumPairs, nameof(options));
        var looks = options.Looks();
        var series = new RoundSeries([figure], options);
        var pairOf = Alternately<IReadOnlyList<double>>(async (side, ct) => [await round(side, ct).ConfigureAwait(false)]);
        for (var look = 1; ; look++)
        {
            await series.MeasureUntilAsync(looks[look - 1], pairOf, cancellationToken).ConfigureAwait(false);
            if (SequentialPairs.Stopped(series.Comparisons(SequentialPairs.LookConfidence(options))[0], look, options, decision) is { } stopped)
            {
                return stopped;
            }
        }
    }

    // One pair of rounds of `round`, its sides in ABBA order by the pair's index.
    private static Func<int, CancellationToken, Task<(T Base, T Head)>> Alternately<T>(Func<PairedSide, CancellationToken, Task<T>> round) =>
        async (pair, ct) =>
        {
            var answers = new Dictionary<PairedSide, T>();
            foreach (var side in OrderOf(pair))
            {
                ct.ThrowIfCancellationRequested();
                answers[side] = await round(side, ct).ConfigureAwait(false);
            }

            return (answers[PairedSide.Base], answers[PairedSide.Head]);
        };

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

        var series = new RoundSeries(figures, options);
        await series.MeasureUntilAsync(options.Pairs, pairOf, cancellationToken).ConfigureAwait(false);
        return series.Comparisons(options.Confidence);
    }

    // The rounds measured so far, warm-up thrown away: pairs are added until a count of measured pairs is reached, and
    // the comparisons are read at any point (a fixed design reads them once, a sequential one at every look).
    private sealed class RoundSeries(IReadOnlyList<string> figures, PairedRoundsOptions options)
    {
        private readonly List<double>[] _base = [.. Enumerable.Range(0, figures.Count).Select(_ => new List<double>())];
        private readonly List<double>[] _head = [.. Enumerable.Range(0, figures.Count).Select(_ => new List<double>())];
        private readonly List<double> _warmBase = [];
        private readonly List<double> _warmHead = [];
        private int _warmUp;
        private int _pair;

        public async Task MeasureUntilAsync(int measuredPairs,
            Func<int, CancellationToken, Task<(IReadOnlyList<double> Base, IReadOnlyList<double> Head)>> pairOf, CancellationToken cancellationToken)
        {
            while (_base[0].Count < measuredPairs)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var (b, h) = await pairOf(_pair++, cancellationToken).ConfigureAwait(false);
                if (b.Count != figures.Count || h.Count != figures.Count)
                {
                    throw new InvalidOperationException($"The round answered {b.Count} and {h.Count} figures for {figures.Count} names ({string.Join(", ", figures)}).");
                }

                var warming = _base[0].Count == 0 && (_warmUp < options.WarmUpPairs || (_warmUp < options.MaxWarmUpPairs && !(Steady(_warmBase, options.SteadyWithin) && Steady(_warmHead, options.SteadyWithin))));
                if (warming)
                {
                    _warmUp++;
                    _warmBase.Add(b[0]);
                    _warmHead.Add(h[0]);
                    continue;
                }

                for (var i = 0; i < figures.Count; i++)
                {
                    _base[i].Add(b[i]);
                    _head[i].Add(h[i]);
                }
            }
        }

        public IReadOnlyList<PairedComparison> Comparisons(double confidence) =>
            [.. figures.Select((name, i) => new PairedComparison(name, [.. _base[i]], [.. _head[i]], confidence) { WarmUpPairs = _warmUp })];
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
