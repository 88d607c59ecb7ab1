namespace PerfBudgets.Measuring;

/// <summary>
/// The call graph of a counted repetition, per operation, as Callgrind names its functions (a JIT-compiled method can
/// be several of them, one per block a call or jump entered; every stub is one of its own), with the name each
/// resolves to and which are the program's own code. Kept at Callgrind's grain because a stub serves one callee: merged
/// by name, every <c>MethodCallThunk</c> would seem to lead to every method any of them reached.
/// </summary>
/// <param name="Exclusive">Each function's own instructions per operation.</param>
/// <param name="Calls">Instructions per operation of each caller's calls to each callee, the callee's callees included.</param>
/// <param name="Names">The name each function resolves to (<see cref="InstructionMeasurement"/>'s breakdown names).</param>
/// <param name="Own">The functions that are the program's own code (<see cref="Diagnosing.InclusiveAttribution.IsOwnModule"/>).</param>
internal sealed record CallGraph(
    IReadOnlyDictionary<string, double> Exclusive,
    IReadOnlyList<MethodCall> Calls,
    IReadOnlyDictionary<string, string> Names,
    IReadOnlySet<string> Own)
{
    /// <summary>The same graph with every figure divided by <paramref name="divisor"/> (per item instead of per operation).</summary>
    public CallGraph DividedBy(double divisor) => this with
    {
        Exclusive = Exclusive.ToDictionary(e => e.Key, e => e.Value / divisor, StringComparer.Ordinal),
        Calls = [.. Calls.Select(c => c with { PerOperation = c.PerOperation / divisor })],
    };
}
