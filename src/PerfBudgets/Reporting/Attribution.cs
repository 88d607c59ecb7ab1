namespace PerfBudgets.Reporting;

/// <summary>
/// What broke a budget: the breakdown a diagnosis found when the budget failed (the top allocating types, the hottest
/// methods), recorded in <c>results.json</c> beside the failing result and rendered under <c>summary.md</c>'s table.
/// </summary>
/// <param name="Summary">One line, as the failure message shows it: <c>top types per op: System.Byte[] ≈ 280 B, …</c>.</param>
/// <param name="Entries">The breakdown, largest first.</param>
/// <param name="Note">How the figures were obtained and how far to trust them (sample count, sampling error).</param>
/// <param name="Change">
/// When a baseline breakdown of the same budget was available (<c>PERF_BASELINE</c>), what changed since: one line.
/// </param>
public sealed record Attribution(string Summary, IReadOnlyList<AttributionEntry> Entries, string? Note = null, string? Change = null)
{
    /// <summary>
    /// The program's own methods (neither the platform's nor this package's), each with what it called folded in,
    /// largest first: where a change made through a framework call shows, and what a later failure compares with to say
    /// which of them grew. Empty when the diagnosis cannot tell (no call graph, no stacks).
    /// </summary>
    public IReadOnlyList<AttributionEntry> OwnCode { get; init; } = [];

    /// <summary>An attribution that could not be obtained: the summary says why, and there is no breakdown.</summary>
    public static Attribution Unavailable(string reason) => new($"attribution unavailable: {reason}", []);
}

/// <summary>One line of a breakdown: a type with its estimated bytes per operation, or a method with its samples.</summary>
/// <param name="Name">The type or method.</param>
/// <param name="Value">Its figure (bytes per operation, exclusive samples).</param>
/// <param name="Unit">The unit of <paramref name="Value"/> (<c>B/op</c>, <c>samples</c>).</param>
/// <param name="Share">Its fraction of the whole (0 to 1), when a whole is known.</param>
/// <param name="Samples">How many samples the figure rests on, when it is sampled; its relative error is about 1/√Samples.</param>
public sealed record AttributionEntry(string Name, double Value, string Unit, double? Share, int? Samples = null);
