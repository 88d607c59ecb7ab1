namespace PerfBudgets.Budgets;

/// <summary>Which side of its limit a measurement must stay on.</summary>
public enum BudgetDirection
{
    /// <summary>The measurement must not exceed the limit (allocations, latency, errors, sizes).</summary>
    AtMost,

    /// <summary>The measurement must not fall below the limit (throughput, efficiency, ratios).</summary>
    AtLeast,
}

/// <summary>
/// The kinds a budget in <c>budgets.json</c> may have. The kind fixes the direction of the comparison, so a
/// budget file cannot say "at most 1,000 requests per second" by mistake.
/// </summary>
public static class BudgetKind
{
    private static readonly Dictionary<string, BudgetDirection> Directions = new(StringComparer.Ordinal)
    {
        ["allocated-bytes-per-op"] = BudgetDirection.AtMost,
        ["bytes-max"] = BudgetDirection.AtMost,
        ["p99-ms-max"] = BudgetDirection.AtMost,
        ["errors-max"] = BudgetDirection.AtMost,
        ["collections-max"] = BudgetDirection.AtMost,
        ["ratio-max"] = BudgetDirection.AtMost,
        ["count-max"] = BudgetDirection.AtMost,
        ["cpu-cost-max"] = BudgetDirection.AtMost,
        ["instructions-max"] = BudgetDirection.AtMost,
        ["syscalls-max"] = BudgetDirection.AtMost,
        ["blocked-ms-max"] = BudgetDirection.AtMost,
        ["contentions-max"] = BudgetDirection.AtMost,
        ["requests-per-second-min"] = BudgetDirection.AtLeast,
        ["operations-per-second-min"] = BudgetDirection.AtLeast,
        ["efficiency-min"] = BudgetDirection.AtLeast,
        ["ratio-min"] = BudgetDirection.AtLeast,
    };

    // Kinds whose figure is a property of the output (wire bytes, a compression ratio), the same in any build;
    // every other kind measures what the compiled code does and is refused on a non-optimized build.
    private static readonly HashSet<string> OutputSizeKinds = new(StringComparer.Ordinal) { "bytes-max", "ratio-max" };

    // Kinds measured against the wall clock on a shared machine: a neighbour can only make them worse, so a run that
    // breaks one of these (and nothing else) may be repeated. Counts of failures, bytes and collections never are.
    private static readonly HashSet<string> WallClockKinds = new(StringComparer.Ordinal)
    {
        "p99-ms-max", "requests-per-second-min", "operations-per-second-min", "efficiency-min", "ratio-min",
    };

    /// <summary>Instructions executed per operation, counted under Callgrind (<c>InstructionMeter</c>).</summary>
    public const string InstructionsMax = "instructions-max";

    /// <summary>System calls per operation, counted under Callgrind (<c>InstructionMeter</c>).</summary>
    public const string SyscallsMax = "syscalls-max";

    /// <summary>
    /// Thread-milliseconds a server's pool threads spend blocked inside work items, per operation (<c>BlockingMeter</c>).
    /// </summary>
    public const string BlockedMillisecondsMax = "blocked-ms-max";

    /// <summary>Lock contentions inside a server's work items, per operation (<c>BlockingMeter</c>).</summary>
    public const string ContentionsMax = "contentions-max";

    /// <summary>
    /// True for the counted kinds (<see cref="InstructionsMax"/>, <see cref="SyscallsMax"/>): their limit is a recorded
    /// count plus a margin, recorded with a runtime and a Valgrind version, and re-recorded rather than tuned.
    /// </summary>
    public static bool IsCounted(string kind) => kind is InstructionsMax or SyscallsMax;

    /// <summary>Every kind the harness knows, in a stable order.</summary>
    public static IReadOnlyCollection<string> All => Directions.Keys;

    /// <summary>True for kinds measured against the wall clock (latency, rates), which a busy neighbour can break.</summary>
    public static bool IsWallClock(string kind) => WallClockKinds.Contains(kind);

    /// <summary>
    /// True when a figure of this kind depends on how the code was compiled (allocation, CPU, throughput, latency), so
    /// that it means nothing on a Debug build; false for output sizes (<c>bytes-max</c>, <c>ratio-max</c>).
    /// </summary>
    public static bool DependsOnCodeGeneration(string kind) => !OutputSizeKinds.Contains(kind);

    /// <summary>Looks up the direction of a kind.</summary>
    public static bool TryGetDirection(string kind, out BudgetDirection direction) =>
        Directions.TryGetValue(kind, out direction);
}
