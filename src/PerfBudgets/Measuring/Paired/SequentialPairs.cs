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
/// </remarks>
internal static class SequentialPairs
{
    /// <summary>Runs <paramref name="onePair"/> (the i-th pair of fresh processes, from 0) look by look until decided or capped.</summary>
    public static PairedComparison Run(Func<int, PairedComparison> onePair, PairedRoundsOptions options, PairedDecision decision)
    {
        ArgumentNullException.ThrowIfNull(onePair);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(decision);
        options.Validate();
        var looks = options.Looks();
        var lookConfidence = LookConfidence(options);
        var byProcessPair = new List<PairedComparison>(options.MaxProcessPairs);
        for (var look = 1; ; look++)
        {
            while (byProcessPair.Count < looks[look - 1])
            {
                byProcessPair.Add(onePair(byProcessPair.Count));
            }

            var pooled = PairedComparison.Pooled(byProcessPair, lookConfidence);
            if (pooled.NotRunBecause is not null)
            {
                return pooled;
            }

            if (Stopped(pooled, look, options, decision) is { } stopped)
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
    internal static PairedComparison? Stopped(PairedComparison atLook, int look, PairedRoundsOptions options, PairedDecision decision)
    {
        var looks = options.Looks();
        var decided = decision.Decided(atLook.Lower, atLook.Upper);
        return decided is null && look < looks.Count
            ? null
            : atLook.StoppedAt(new SequentialStop(looks[look - 1], options.MaxProcessPairs, look, looks.Count, LookConfidence(options), decided ?? decision.Undecided(), decided is not null), options.Confidence);
    }
}
