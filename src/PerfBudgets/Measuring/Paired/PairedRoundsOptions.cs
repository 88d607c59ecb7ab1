namespace PerfBudgets.Measuring;

/// <summary>How many rounds a paired comparison runs, how it warms up and how sure its interval is (<see cref="PairedRounds"/>).</summary>
/// <param name="Pairs">Measured pairs: one base round and one head round each.</param>
/// <param name="WarmUpPairs">Pairs run first and thrown away (the JIT's tiers, the caches, the connections), at least.</param>
/// <param name="Confidence">The interval's two-sided confidence; a paired budget fails only when all of it lies beyond the limit.</param>
/// <param name="MaxWarmUpPairs">
/// Warm-up goes on past <paramref name="WarmUpPairs"/> until the first figure of each side's last five rounds lies within
/// <paramref name="SteadyWithin"/> of their median, up to this many pairs: an app's tiered JIT keeps compiling for seconds under
/// load, and its background compilation is CPU time of the process measured.
/// </param>
/// <param name="SteadyWithin">The relative spread of the last five warm-up rounds that counts as steady.</param>
public sealed record PairedRoundsOptions(int Pairs = 20, int WarmUpPairs = 3, double Confidence = 0.95, int MaxWarmUpPairs = 30, double SteadyWithin = 0.1)
{
    /// <summary>
    /// For <see cref="PairedWorkloads"/>: how long a workload host may take to say <c>ready</c> or to answer one round
    /// before it is killed and the comparison fails, naming the host and the last lines of its standard error. 2 minutes
    /// by default.
    /// </summary>
    public TimeSpan HostTimeout { get; init; } = TimeSpan.FromMinutes(2);

    /// <summary>
    /// For <see cref="PairedWorkloads"/>, which starts the processes it compares: how many pairs of fresh processes run
    /// the comparison, each warmed up on its own and then running <see cref="Pairs"/> pairs of rounds, 8 by default.
    /// </summary>
    /// <remarks>
    /// A process keeps luck of its own for as long as it lives (where the JIT placed its hot loop, its memory's pages),
    /// which no number of rounds cancels (docs/paired-budgets.md, "Pairs of processes", has the figures). Over several
    /// pairs the estimate averages that luck, and the interval is widened to the spread between the pairs
    /// (<see cref="PairedComparison.ProcessPairRatios"/>).
    /// </remarks>
    public int ProcessPairs { get; init; } = 8;

    /// <summary>
    /// For <see cref="PairedRounds.CompareUntilDecidedAsync"/>, the most pairs of rounds (each a pair of fresh
    /// processes) it runs while its interval straddles the limit. For <see cref="PairedWorkloads"/> under a paired budget's limit (<see cref="BaseBuild.BudgetLimit"/>, which
    /// <c>BudgetGate.CheckVsBase</c> sets): the most pairs of processes a comparison runs, 16 by default. It looks after
    /// every <see cref="ProcessPairsPerLook"/> pairs and stops as soon as its interval decides the budget (it lies wholly
    /// on the passing side of the limit, or the budget fails under its <see cref="Budgets.PairedRule"/>); while it does
    /// not, it runs on to this cap. Without a limit it runs <see cref="ProcessPairs"/>.
    /// </summary>
    /// <remarks>
    /// Each look's interval is at the confidence <see cref="Confidence"/> split evenly among the looks (Bonferroni), so
    /// the interval reported holds at <see cref="Confidence"/> however early the comparison stopped
    /// (docs/paired-budgets.md, "Adaptive pairs of processes").
    /// </remarks>
    public int MaxProcessPairs { get; init; } = 16;

    /// <summary>
    /// For <see cref="PairedWorkloads"/> under a paired budget's limit: the pairs of processes between one look at the
    /// interval and the next, 4 by default, at least 3 (the interval is Student's t over the pairs, from three). For
    /// <see cref="PairedRounds.CompareUntilDecidedAsync"/>: the pairs of rounds between looks, at least 6.
    /// </summary>
    public int ProcessPairsPerLook { get; init; } = 4;

    // The pairs of processes after which a comparison under a limit looks: every ProcessPairsPerLook, and the cap.
    internal IReadOnlyList<int> Looks()
    {
        var looks = new List<int>();
        for (var pairs = ProcessPairsPerLook; pairs < MaxProcessPairs; pairs += ProcessPairsPerLook)
        {
            looks.Add(pairs);
        }

        looks.Add(MaxProcessPairs);
        return looks;
    }

    // Fewer pairs of processes than this give a look no spread to estimate its interval from.
    private const int MinimumPairsPerLook = 3;

    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ProcessPairs);
        ArgumentOutOfRangeException.ThrowIfLessThan(ProcessPairsPerLook, MinimumPairsPerLook);
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxProcessPairs, ProcessPairsPerLook);
        if (Pairs < PairedInterval.MinimumPairs)
        {
            throw new ArgumentOutOfRangeException(nameof(Pairs), Pairs, $"A paired comparison needs at least {PairedInterval.MinimumPairs} pairs for an interval.");
        }

        ArgumentOutOfRangeException.ThrowIfNegative(WarmUpPairs);
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxWarmUpPairs, WarmUpPairs);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(SteadyWithin);
        if (Confidence is <= 0.5 or >= 1)
        {
            throw new ArgumentOutOfRangeException(nameof(Confidence), Confidence, "A two-sided confidence between 0.5 and 1.");
        }
    }
}
