using PerfBudgets.Budgets;

namespace PerfBudgets.Measuring;

/// <summary>
/// Compares the base build and the head build over fresh pairs of processes that the caller starts (two servers, two
/// services), look by look, until each paired budget is decided.
/// </summary>
/// <remarks>
/// The rounds inside one pair of long-lived processes share that pair's luck (where the JIT placed a hot loop, which
/// process's threads got a core beside a neighbour), which more rounds do not cancel: an interval over one pair's rounds
/// is too narrow to hold at its stated confidence. Here the pair of processes is the unit
/// (<see cref="PairedComparison.Pooled(IReadOnlyList{PairedComparison})"/>), and the comparison spends its pairs where
/// the decision is close: it looks after every <see cref="PairedRoundsOptions.ProcessPairsPerLook"/> pairs, up to
/// <see cref="PairedRoundsOptions.MaxProcessPairs"/>, each look at the options' confidence split evenly among the looks
/// (Bonferroni), and stops once every figure's interval decides its budget or one fails it. The interval it stops with
/// holds at the options' confidence wherever it stopped.
/// </remarks>
public static class PairedProcesses
{
    /// <summary>
    /// Runs <paramref name="onePair"/> in fresh pairs of processes until decided, and returns one pooled comparison per
    /// budget, in the order of <paramref name="budgets"/>; each says where the comparison stopped and why.
    /// </summary>
    /// <param name="budgets">The paired budgets the figures are judged by (kind, limit, rule), from the gate's book.</param>
    /// <param name="onePair">
    /// Starts the i-th pair of processes (from 0), compares them (<see cref="PairedRounds.CompareAsync"/>, or
    /// <see cref="PairedHttpLoad.CompareAsync"/>), stops them, and answers one comparison per budget, in their order.
    /// </param>
    /// <param name="options">The looks (<see cref="PairedRoundsOptions.ProcessPairsPerLook"/>, at least 3) and their cap, and the confidence.</param>
    /// <param name="cancellationToken">Cancels between pairs of processes and is passed to each.</param>
    /// <exception cref="ArgumentException">No budget, or one that is not paired.</exception>
    /// <exception cref="InvalidOperationException">A pair of processes answered a different number of comparisons.</exception>
    public static Task<IReadOnlyList<PairedComparison>> CompareUntilDecidedAsync(IReadOnlyList<Budget> budgets,
        Func<int, CancellationToken, Task<IReadOnlyList<PairedComparison>>> onePair, PairedRoundsOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(budgets);
        ArgumentNullException.ThrowIfNull(onePair);
        ArgumentNullException.ThrowIfNull(options);
        if (budgets.Count == 0)
        {
            throw new ArgumentException("Name at least one paired budget.", nameof(budgets));
        }

        if (budgets.Any(b => b is null))
        {
            throw new ArgumentException("A budget in the list is null.", nameof(budgets));
        }

        return SequentialPairs.RunAsync(onePair, options, [.. budgets.Select(b => PairedDecision.OfPaired(b, "pairs of processes", nameof(budgets)))], cancellationToken);
    }
}
