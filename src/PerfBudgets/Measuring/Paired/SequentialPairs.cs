using PerfBudgets.Budgets;

namespace PerfBudgets.Measuring;

/// <summary>
/// Runs pairs of processes until the comparison is decided against a limit: a group-sequential design with the
/// confidence split evenly among a fixed set of looks (Bonferroni).
/// </summary>
/// <remarks>
/// After each look's pairs (<see cref="PairedRoundsOptions.ProcessPairsPerLook"/>, up to
/// <see cref="PairedRoundsOptions.MaxProcessPairs"/>) the pairs so far are pooled (<see cref="PairedComparison.Pooled(IReadOnlyList{PairedComparison}, double)"/>)
/// at 1 - α/K for K looks, and the comparison stops as soon as that interval decides the budget
/// (<see cref="PairedDecision.Decided(double, double)"/>: it lies wholly on the passing side of the limit, or the budget
/// fails under its rule). The
/// chance that any of the K intervals misses the true ratio is at most the sum of theirs, α, whatever rule chose when to
/// stop: so the interval it stops with holds at the design's confidence. A confidence sequence (Howard et al., 2021)
/// would allow a look after every pair, but it needs a known bound on the spread, and the spread between pairs of
/// processes is what each run has to estimate; alpha-spending boundaries (O'Brien and Fleming) are narrower at the last
/// look, but their validity rests on normal statistics with a known correlation between looks, which Student's t over
/// pairs with an estimated spread does not have. With four
/// looks the union bound costs little: each look is at 97.5% for a 90% design.
/// <para>
/// A pair of processes may measure several figures at once (a server's rate and its CPU time per request), each judged
/// by a budget of its own: the comparison stops when every figure's interval decides its budget, or one fails its
/// budget (the run fails whatever the others would read), or at the cap. The union bound holds for each figure under
/// any rule for stopping, so each interval holds at the design's confidence.
/// </para>
/// </remarks>
internal static class SequentialPairs
{
    /// <summary>Runs <paramref name="onePair"/> (the i-th pair of fresh processes, from 0) look by look until decided or capped.</summary>
    public static PairedComparison Run(Func<int, PairedComparison> onePair, PairedRoundsOptions options, PairedDecision decision)
    {
        ArgumentNullException.ThrowIfNull(onePair);
        return RunAsync((pair, _) => Task.FromResult<IReadOnlyList<PairedComparison>>([onePair(pair)]), options, [decision], CancellationToken.None)
            .GetAwaiter().GetResult()[0];
    }

    /// <summary>
    /// Runs <paramref name="onePair"/> (the i-th pair of fresh processes, from 0; one comparison per decision, in their
    /// order) look by look until every figure is decided, one fails, or the cap.
    /// </summary>
    public static async Task<IReadOnlyList<PairedComparison>> RunAsync(Func<int, CancellationToken, Task<IReadOnlyList<PairedComparison>>> onePair,
        PairedRoundsOptions options, IReadOnlyList<PairedDecision> decisions, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(onePair);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(decisions);
        options.Validate();
        var looks = options.Looks();
        var lookConfidence = LookConfidence(options);
        var byProcessPair = new List<IReadOnlyList<PairedComparison>>(options.MaxProcessPairs);
        for (var look = 1; ; look++)
        {
            while (byProcessPair.Count < looks[look - 1])
            {
                cancellationToken.ThrowIfCancellationRequested();
                var pair = await onePair(byProcessPair.Count, cancellationToken).ConfigureAwait(false);
                if (pair.Count != decisions.Count)
                {
                    throw new InvalidOperationException($"A pair of processes answered {pair.Count} comparisons for {decisions.Count} budgets.");
                }

                byProcessPair.Add(pair);
            }

            var pooled = Enumerable.Range(0, decisions.Count)
                .Select(figure => PairedComparison.Pooled([.. byProcessPair.Select(pair => pair[figure])], lookConfidence)).ToList();
            if (pooled.Any(c => c.NotRunBecause is not null))
            {
                return pooled;
            }

            if (Stopped(pooled, look, options, decisions) is { } stopped)
            {
                return stopped;
            }
        }
    }

    /// <summary>Each look's confidence: the design's split evenly among the looks (Bonferroni).</summary>
    internal static double LookConfidence(PairedRoundsOptions options) => 1 - ((1 - options.Confidence) / options.Looks().Count);

    /// <summary>
    /// The comparison stopped at look <paramref name="look"/> (from 1; its interval at <see cref="LookConfidence"/>),
    /// where the interval decides the budget or the look is the last; null to run on.
    /// </summary>
    internal static PairedComparison? Stopped(PairedComparison atLook, int look, PairedRoundsOptions options, PairedDecision decision) =>
        Stopped([atLook], look, options, [decision])?[0];

    // As the single figure's: stopped when every figure is decided, one fails its budget, or the look is the last.
    private static IReadOnlyList<PairedComparison>? Stopped(IReadOnlyList<PairedComparison> atLook, int look, PairedRoundsOptions options, IReadOnlyList<PairedDecision> decisions)
    {
        var looks = options.Looks();
        var decided = atLook.Select((c, i) => decisions[i].Decided(c.Lower, c.Upper)).ToList();
        var stop = look == looks.Count || decided.All(d => d is not null) || atLook.Where((c, i) => decisions[i].Fails(c.Lower, c.Upper)).Any();
        return stop
            ? [.. atLook.Select((c, i) => c.StoppedAt(new SequentialStop(looks[look - 1], options.MaxProcessPairs, look, looks.Count, LookConfidence(options),
                decided[i] ?? decisions[i].Undecided(), decided[i] is not null), options.Confidence))]
            : null;
    }
}
