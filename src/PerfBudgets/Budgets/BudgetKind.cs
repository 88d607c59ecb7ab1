namespace PerfBudgets.Budgets;

/// <summary>
/// A kind of budget in <c>budgets.json</c>. The kind fixes the direction of the comparison, so a budget file cannot say
/// "at most 1,000 requests per second" by mistake, and says what family of unit its figures are in and how they behave
/// on a shared machine.
/// </summary>
public sealed class BudgetKind : IEquatable<BudgetKind>
{
    private static readonly Dictionary<string, BudgetKind> ByName = new(StringComparer.Ordinal);

    /// <summary>Bytes allocated per operation (<c>AllocationMeter</c>).</summary>
    public static readonly BudgetKind AllocatedBytesPerOp = new("allocated-bytes-per-op", BudgetDirection.AtMost, UnitFamily.Bytes);

    /// <summary>An output size in bytes (wire bytes, an encoded block): the same in any build.</summary>
    public static readonly BudgetKind BytesMax = new("bytes-max", BudgetDirection.AtMost, UnitFamily.Bytes, Traits.OutputSize);

    /// <summary>A latency percentile in milliseconds, from a load run.</summary>
    public static readonly BudgetKind P99MillisecondsMax = new("p99-ms-max", BudgetDirection.AtMost, UnitFamily.Time, Traits.WallClock);

    /// <summary>
    /// The 99th percentile of the server CPU time each request cost, in milliseconds (<c>RequestCostMeter</c>): a tail
    /// that an average or a round's total hides. Treated as wall-clock for the retry rule: a run that breaks it is
    /// measured again, since a neighbour can still add some CPU time (caches, a shared core), only ever upward.
    /// </summary>
    public static readonly BudgetKind P99CpuMillisecondsPerRequestMax = new("p99-cpu-ms-per-request-max", BudgetDirection.AtMost, UnitFamily.Time, Traits.WallClock);

    /// <summary>
    /// The 99th percentile of the server CPU time each request cost over its median (<c>RequestCostMeter</c>): a slow
    /// path in a few requests, as a multiple of a typical request, so a machine that is faster or slower at the whole
    /// does not move it. Work added to every request moves both and is for the counted and paired budgets. Wall-clock
    /// for the retry rule, as <see cref="P99CpuMillisecondsPerRequestMax"/>.
    /// </summary>
    public static readonly BudgetKind P99ToP50CpuPerRequestMax = new("p99-to-p50-cpu-per-request-max", BudgetDirection.AtMost, UnitFamily.Ratio, Traits.WallClock);

    /// <summary>Failed requests or operations: never repeated away.</summary>
    public static readonly BudgetKind ErrorsMax = new("errors-max", BudgetDirection.AtMost, UnitFamily.Count);

    /// <summary>Garbage collections during a measurement.</summary>
    public static readonly BudgetKind CollectionsMax = new("collections-max", BudgetDirection.AtMost, UnitFamily.Count);

    /// <summary>A ratio of two output figures (a compression ratio): the same in any build.</summary>
    public static readonly BudgetKind RatioMax = new("ratio-max", BudgetDirection.AtMost, UnitFamily.Ratio, Traits.OutputSize);

    /// <summary>Any other count per operation.</summary>
    public static readonly BudgetKind CountMax = new("count-max", BudgetDirection.AtMost, UnitFamily.Count);

    /// <summary>CPU time per operation in calibration units (<c>CpuMeter</c>).</summary>
    public static readonly BudgetKind CpuCostMax = new("cpu-cost-max", BudgetDirection.AtMost, UnitFamily.CpuCost);

    /// <summary>Instructions executed per operation, counted under Callgrind (<c>InstructionMeter</c>).</summary>
    public static readonly BudgetKind InstructionsMax = new("instructions-max", BudgetDirection.AtMost, UnitFamily.Instructions, Traits.Counted);

    /// <summary>System calls per operation, counted under Callgrind (<c>InstructionMeter</c>).</summary>
    public static readonly BudgetKind SyscallsMax = new("syscalls-max", BudgetDirection.AtMost, UnitFamily.SystemCalls, Traits.Counted);

    /// <summary>
    /// Cycles per operation estimated from Callgrind's cache simulation (<c>InstructionMeter</c> with the cache
    /// simulation on, its caches fixed): L1 hits + 5 x last-level hits + 35 x memory accesses. Counted like
    /// <see cref="InstructionsMax"/>, and it sees what an instruction count cannot: the same work over a working set
    /// that no longer fits a cache.
    /// </summary>
    public static readonly BudgetKind CyclesMax = new("cycles-max", BudgetDirection.AtMost, UnitFamily.Cycles, Traits.Counted);

    /// <summary>
    /// How an operation's counted cost grows with its input between two sizes: the exponent k of cost ∝ size^k
    /// (<c>GrowthMeasurement</c>), unitless; linear work with a fixed part is at most 1, a scan per item about 2.
    /// Counted like <see cref="InstructionsMax"/>: recorded, re-recorded rather than tuned; its margin is in exponent
    /// units (limit = recorded + margin), since an exponent near 0 has no useful fraction.
    /// </summary>
    public static readonly BudgetKind GrowthExponentMax = new("growth-exponent-max", BudgetDirection.AtMost, UnitFamily.Ratio, Traits.Counted);

    /// <summary>Thread-milliseconds a server's pool threads spend blocked inside work items, per operation (<c>BlockingMeter</c>).</summary>
    public static readonly BudgetKind BlockedMillisecondsMax = new("blocked-ms-max", BudgetDirection.AtMost, UnitFamily.Time, Traits.SampledWaits);

    /// <summary>Lock contentions inside a server's work items, per operation (<c>BlockingMeter</c>).</summary>
    public static readonly BudgetKind ContentionsMax = new("contentions-max", BudgetDirection.AtMost, UnitFamily.Count, Traits.SampledWaits);

    /// <summary>A request rate floor, from a load run.</summary>
    public static readonly BudgetKind RequestsPerSecondMin = new("requests-per-second-min", BudgetDirection.AtLeast, UnitFamily.Rate, Traits.WallClock | Traits.ProposedFloor);

    /// <summary>An operation rate floor, from a load run.</summary>
    public static readonly BudgetKind OperationsPerSecondMin = new("operations-per-second-min", BudgetDirection.AtLeast, UnitFamily.Rate, Traits.WallClock | Traits.ProposedFloor);

    /// <summary>An efficiency floor (achieved against ideal, e.g. Little's law).</summary>
    public static readonly BudgetKind EfficiencyMin = new("efficiency-min", BudgetDirection.AtLeast, UnitFamily.Ratio, Traits.WallClock | Traits.ProposedFloor);

    /// <summary>A floor on a ratio of two figures measured in the same run.</summary>
    public static readonly BudgetKind RatioMin = new("ratio-min", BudgetDirection.AtLeast, UnitFamily.Ratio, Traits.WallClock);

    /// <summary>
    /// A ceiling on a ratio of two times measured alternately in the same run, e.g. an app's start against a minimal
    /// reference app's (<c>StartupMeter</c>): the machine's speed and its neighbours slow both, so the ratio holds where
    /// either time would not. Unlike <see cref="RatioMax"/> (an output's property) it is timed, so a run broken only on
    /// it may be repeated.
    /// </summary>
    public static readonly BudgetKind TimeRatioMax = new("time-ratio-max", BudgetDirection.AtMost, UnitFamily.Ratio, Traits.WallClock);

    /// <summary>
    /// Live bytes an operation leaves behind: growth of the live heap per operation between two full-collection
    /// readings (<c>RetainedMemoryMeter</c>). A leak moves it; allocation figures do not see it.
    /// </summary>
    public static readonly BudgetKind RetainedBytesPerOpMax = new("retained-bytes-per-op-max", BudgetDirection.AtMost, UnitFamily.Bytes);

    /// <summary>Live instances of a type after the operations are done (from a heap snapshot).</summary>
    public static readonly BudgetKind InstancesMax = new("instances-max", BudgetDirection.AtMost, UnitFamily.Count);

    /// <summary>A process's peak resident set (the kernel's high-water mark, <c>VmHWM</c>), in bytes.</summary>
    public static readonly BudgetKind WorkingSetBytesMax = new("working-set-bytes-max", BudgetDirection.AtMost, UnitFamily.Bytes);

    /// <summary>Bytes the garbage collector has committed from the OS, in a process after its load.</summary>
    public static readonly BudgetKind GcCommittedBytesMax = new("gc-committed-bytes-max", BudgetDirection.AtMost, UnitFamily.Bytes);

    /// <summary>
    /// A ceiling on head ÷ base of a timed figure (CPU time per request, a p99, a start's time), the change measured
    /// against its base commit in alternating rounds of the same run (<c>PairedRounds</c>, <c>BaseBuild</c>). Judged on
    /// the confidence interval as the budget's <see cref="Budget.PairedRule"/> says: by default it fails when the whole
    /// interval lies above 1 (a slowdown shown) and its upper end above the limit (the limit not ruled out); with
    /// <see cref="PairedRule.Beyond"/> only when the whole interval lies above the limit. Treated as
    /// wall-clock for the retry rule: the interval covers the rounds' noise, not the two processes' own luck (a thread
    /// pool grown differently, a neighbour that keeps to one core), so a run that breaks it may run again with a fresh
    /// pair of processes, and a regression breaks every pair.
    /// </summary>
    public static readonly BudgetKind VsBaseRatioMax = new("vs-base-ratio-max", BudgetDirection.AtMost, UnitFamily.Ratio, Traits.Paired | Traits.WallClock);

    /// <summary>
    /// A floor on head ÷ base of a timed figure (a throughput), measured and judged as <see cref="VsBaseRatioMax"/> is,
    /// from below: by default it fails when the whole interval lies below 1 and its lower end below the limit; with
    /// <see cref="PairedRule.Beyond"/> only when the whole interval lies below the limit.
    /// </summary>
    public static readonly BudgetKind VsBaseRatioMin = new("vs-base-ratio-min", BudgetDirection.AtLeast, UnitFamily.Ratio, Traits.Paired | Traits.WallClock);

    private readonly Traits _traits;

    private BudgetKind(string name, BudgetDirection direction, UnitFamily family, Traits traits = Traits.None)
    {
        Name = name;
        Direction = direction;
        Family = family;
        _traits = traits;
        ByName.Add(name, this);
    }

    [Flags]
    private enum Traits
    {
        None = 0,

        // A property of the output (wire bytes, a compression ratio), the same in any build.
        OutputSize = 1,

        // Measured against the wall clock on a shared machine: a neighbour can only make it worse.
        WallClock = 2,

        // A recorded count plus a margin, re-recorded rather than tuned.
        Counted = 4,

        // A floor set a fixed factor below the slowest run it was proposed from (perfbudgets propose).
        ProposedFloor = 8,

        // Head against base in the same run: judged on a confidence interval, not on one figure.
        Paired = 16,

        // Waits sampled in a live server: a neighbour that deschedules a lock's holder makes the code's threads wait
        // on it, though the code did not change. A regression waits in every window; the machine rarely in two.
        SampledWaits = 32,
    }

    /// <summary>The kind's name in <c>budgets.json</c>, e.g. <c>allocated-bytes-per-op</c>.</summary>
    public string Name { get; }

    /// <summary>Which side of its limit a measurement must stay on.</summary>
    public BudgetDirection Direction { get; }

    /// <summary>What the figures are in.</summary>
    internal UnitFamily Family { get; }

    /// <summary>
    /// True for the counted kinds (<see cref="InstructionsMax"/>, <see cref="SyscallsMax"/>, <see cref="CyclesMax"/>, <see cref="GrowthExponentMax"/>): their limit is a recorded
    /// count plus a margin, recorded with a runtime and a Valgrind version, and re-recorded rather than tuned.
    /// </summary>
    public bool IsCounted => (_traits & Traits.Counted) != 0;

    /// <summary>
    /// True for kinds measured against the wall clock (latency, rates), which a busy neighbour can break: a run that
    /// breaks only these may be repeated. Counts of failures, bytes and collections never are.
    /// </summary>
    public bool IsWallClock => (_traits & Traits.WallClock) != 0;

    /// <summary>
    /// True for kinds a busy machine can break without a change in the code: the wall-clock kinds and the sampled waits
    /// (<see cref="BlockedMillisecondsMax"/>, <see cref="ContentionsMax"/>). A run that breaks only these is measured
    /// again before it fails (<c>BudgetGate.CheckRunAsync</c>), so a failure is confirmed before it is reported.
    /// </summary>
    internal bool IsConfirmedByRepeat => (_traits & (Traits.WallClock | Traits.SampledWaits)) != 0;

    /// <summary>
    /// True for the paired kinds (<see cref="VsBaseRatioMax"/>, <see cref="VsBaseRatioMin"/>): head ÷ base from one run,
    /// gated with <c>BudgetGate.CheckVsBase</c> on the interval's end nearest to passing.
    /// </summary>
    public bool IsPaired => (_traits & Traits.Paired) != 0;

    /// <summary>
    /// True for the floors whose limit the floor policy sets a fixed factor below the slowest run
    /// (<see cref="RequestsPerSecondMin"/>, <see cref="OperationsPerSecondMin"/>, <see cref="EfficiencyMin"/>), so that a
    /// figure far above its floor says the floor is stale; a ratio floor is set by reasoning, not by the policy.
    /// </summary>
    public bool IsProposedFloor => (_traits & Traits.ProposedFloor) != 0;

    /// <summary>
    /// True when a figure of this kind depends on how the code was compiled (allocation, CPU, throughput, latency), so
    /// that it means nothing on a Debug build; false for output sizes (<c>bytes-max</c>, <c>ratio-max</c>).
    /// </summary>
    public bool DependsOnCodeGeneration => (_traits & Traits.OutputSize) == 0;

    /// <summary>Every kind the harness knows, in a stable order.</summary>
    public static IReadOnlyCollection<BudgetKind> All => ByName.Values;

    /// <summary>Looks a kind up by its name in <c>budgets.json</c>.</summary>
    public static bool TryParse(string? name, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out BudgetKind? kind) =>
        ByName.TryGetValue(name ?? string.Empty, out kind);

    /// <summary>True when <paramref name="measured"/> is on the right side of <paramref name="limit"/> for this kind.</summary>
    public bool IsMet(double measured, double limit) =>
        !double.IsNaN(measured) && (Direction == BudgetDirection.AtMost ? measured <= limit : measured >= limit);

    /// <inheritdoc />
    public bool Equals(BudgetKind? other) => ReferenceEquals(this, other);

    /// <inheritdoc />
    public override bool Equals(object? obj) => ReferenceEquals(this, obj);

    /// <inheritdoc />
    public override int GetHashCode() => Name.GetHashCode(StringComparison.Ordinal);

    /// <summary>The kind's name.</summary>
    public override string ToString() => Name;
}
