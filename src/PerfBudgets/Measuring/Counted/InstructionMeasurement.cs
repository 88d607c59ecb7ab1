using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// What the instruction meter counted for one workload: instructions and system calls of each counted repetition,
/// and where the instructions went, method by method, in the repetition with the fewest.
/// </summary>
public sealed record InstructionMeasurement
{
    /// <summary>The workload's name.</summary>
    public required string Workload { get; init; }

    /// <summary>Operations in each counted repetition.</summary>
    public required int OperationsPerRepetition { get; init; }

    /// <summary>Instructions executed (Callgrind's Ir) in each repetition.</summary>
    public required IReadOnlyList<long> InstructionsByRepetition { get; init; }

    /// <summary>System calls made in each repetition, less clock reads and thread synchronization (<see cref="InstructionMeter.IsTimingDependentSystemCall"/>).</summary>
    public required IReadOnlyList<long> SystemCallsByRepetition { get; init; }

    /// <summary>Cycles estimated from Callgrind's cache simulation (L1 hits + 5 × last-level hits + 35 × memory accesses), one per repetition; empty when the cache simulation was off. Gated by <c>cycles-max</c> budgets.</summary>
    public required IReadOnlyList<long> EstimatedCyclesByRepetition { get; init; }

    /// <summary>Instructions per operation of each method (exclusive of its callees), largest first.</summary>
    public IReadOnlyList<MethodInstructions> Methods { get; init; } = [];

    /// <summary>
    /// The call graph of the repetition <see cref="Methods"/> comes from, which an inclusive attribution folds
    /// (<see cref="Diagnosing.InclusiveAttribution"/>); null when the profile kept none.
    /// </summary>
    internal CallGraph? CallGraph { get; init; }

    /// <summary>System calls per operation by the function that made them (the C library's wrappers), largest first.</summary>
    public IReadOnlyList<MethodInstructions> SystemCallSites { get; init; } = [];

    /// <summary>Estimated cycles per operation of each method (exclusive), largest first; empty without the cache simulation.</summary>
    internal IReadOnlyList<MethodInstructions> CycleMethods { get; init; } = [];

    /// <summary>The .NET runtime that ran the workload.</summary>
    public required string RuntimeVersion { get; init; }

    /// <summary>The Valgrind that counted it.</summary>
    public required string ValgrindVersion { get; init; }

    /// <summary>
    /// Where the counts were reused from, when the run was not run again because a stored one had byte-identical
    /// inputs (<see cref="InstructionMeter.RunProcess"/>); null when they were counted in this run.
    /// </summary>
    public ReusedCount? Reused { get; init; }

    /// <summary>
    /// Why counts taken in this run did not reuse a stored run (<see cref="CountStore.TryLoad"/>: reuse off, a mapped
    /// file changed, or which inputs differ from the nearest stored run's), which the detail states. Null when reused,
    /// or when no store was looked in.
    /// </summary>
    internal string? NotReusedBecause { get; init; }

    /// <summary>
    /// Why counts taken in this run were not stored for a later run to reuse (<see cref="InstructionMeter.RunProcess"/>),
    /// which the detail states: the next run will count them again. Null when stored, reused, or counted another way.
    /// </summary>
    internal string? NotStoredBecause { get; init; }

    /// <summary>
    /// The gated figure: instructions per operation of the repetition with the fewest. Work that lands in one
    /// repetition only (a timer, a collection) can only add, while a change to the code adds to every one.
    /// </summary>
    public double InstructionsPerOperation => (double)InstructionsByRepetition.Min() / OperationsPerRepetition;

    /// <summary>System calls per operation of the repetition with the fewest (the same reasoning).</summary>
    public double SystemCallsPerOperation => (double)Math.Max(0, SystemCallsByRepetition.Min()) / OperationsPerRepetition;

    /// <summary>Estimated cycles per operation of the repetition with the fewest, or null without the cache simulation.</summary>
    public double? EstimatedCyclesPerOperation => EstimatedCyclesByRepetition.Count == 0 ? null : (double)EstimatedCyclesByRepetition.Min() / OperationsPerRepetition;

    /// <summary>Largest ÷ smallest instruction count over the repetitions, minus 1 (0.001 reads as 0.1%).</summary>
    public double InstructionSpread => (double)InstructionsByRepetition.Max() / InstructionsByRepetition.Min() - 1;

    /// <summary>
    /// The same counts per item of an operation that handles <paramref name="itemsPerOperation"/> items (employees in a
    /// list, KiB in a frame): every repetition holds that many times the operations, and each method's count is divided
    /// by it. For a budget on the cost per item at a large size, which a fixed cost per operation no longer hides.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="itemsPerOperation"/> is not positive.</exception>
    public InstructionMeasurement PerItem(int itemsPerOperation)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(itemsPerOperation);
        return this with
        {
            OperationsPerRepetition = checked(OperationsPerRepetition * itemsPerOperation),
            Methods = [.. Methods.Select(m => m with { PerOperation = m.PerOperation / itemsPerOperation })],
            CallGraph = CallGraph?.DividedBy(itemsPerOperation),
            SystemCallSites = [.. SystemCallSites.Select(m => m with { PerOperation = m.PerOperation / itemsPerOperation })],
        };
    }

    /// <summary>
    /// A one-line account: the figure, how it was taken, the spread, the system calls and the versions, for the
    /// detail of a recorded result.
    /// </summary>
    public override string ToString()
    {
        var cycles = EstimatedCyclesPerOperation is { } estimate
            ? string.Create(CultureInfo.InvariantCulture, $", ~{estimate:#,0} estimated cycles/op")
            : string.Empty;
        return string.Create(CultureInfo.InvariantCulture,
            $"{InstructionsPerOperation:#,0.#} instructions/op, the smallest of {InstructionsByRepetition.Count} repetitions of {OperationsPerRepetition:N0} ops each (spread {InstructionSpread:0.###%}), {SystemCallsPerOperation:#,0.##} syscalls/op{cycles}; .NET {RuntimeVersion}, valgrind {ValgrindVersion}{(Reused is null ? string.Empty : $"; {Reused}")}{(NotReusedBecause is null ? string.Empty : $"; counted, not reused: {NotReusedBecause}")}{(NotStoredBecause is null ? string.Empty : $"; counted, not stored for reuse: {NotStoredBecause}")}");
    }
}

/// <summary>One method's count per operation (instructions or system calls), not counting its callees.</summary>
/// <param name="Method">The method (type::name), a native symbol, or a label for code that has no name.</param>
/// <param name="PerOperation">Its count per operation.</param>
public sealed record MethodInstructions(string Method, double PerOperation);

/// <summary>The instructions per operation run in one function's calls to another, the callee's own callees included.</summary>
/// <param name="Caller">The calling function, as Callgrind names it.</param>
/// <param name="Callee">The called function (a method's block, a stub, native code), named the same way.</param>
/// <param name="PerOperation">Instructions per operation in those calls, inclusive.</param>
internal sealed record MethodCall(string Caller, string Callee, double PerOperation);
