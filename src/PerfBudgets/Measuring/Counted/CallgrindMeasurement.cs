using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// An <see cref="InstructionMeasurement"/> from the Callgrind dumps of one workload's counted repetitions: the counts per
/// repetition, and the breakdowns (per method, per system-call site, per estimated cycle, the call graph) of the
/// repetition that counted fewest, each code address named through the runtime's perf map.
/// </summary>
internal static class CallgrindMeasurement
{
    /// <summary>
    /// Builds a measurement from the dumps named <c>perfbudgets:WORKLOAD:OPERATIONS:REPETITION</c> (several threads'
    /// parts of one dump are added up).
    /// </summary>
    internal static InstructionMeasurement From(string workload, IEnumerable<CallgrindProfile> parts, PerfMap map, string runtimeVersion, string valgrindVersion)
    {
        var prefix = $"{InstructionRegion.DumpPrefix}:{workload}:";
        var repetitions = parts
            .Select(p => (Part: p, At: p.Trigger.IndexOf(prefix, StringComparison.Ordinal)))
            .Where(p => p.At >= 0)
            .Select(p => (p.Part, Fields: p.Part.Trigger[(p.At + prefix.Length)..].Split(':')))
            .GroupBy(p => p.Fields[1], StringComparer.Ordinal)
            .OrderBy(g => int.Parse(g.Key, CultureInfo.InvariantCulture))
            .Select(g => (Operations: int.Parse(g.First().Fields[0], CultureInfo.InvariantCulture), Parts: g.Select(p => p.Part).ToList()))
            .ToList();
        if (repetitions.Count == 0)
        {
            throw new InstructionMeterException($"No counted region named '{workload}' in the Callgrind profile: did the host run it?");
        }

        var instructions = repetitions.Select(r => r.Parts.Sum(p => p.Instructions)).ToList();
        var syscalls = repetitions.Select(r => r.Parts.Sum(CountedSystemCalls)).ToList();
        var cycles = repetitions.All(r => r.Parts.All(p => p.Totals.ContainsKey("DLmw")))
            ? repetitions.Select(r => r.Parts.Sum(EstimatedCycles)).ToList()
            : [];
        var operations = repetitions[0].Operations;
        var fewest = repetitions[instructions.IndexOf(instructions.Min())].Parts;
        var fewestCalls = repetitions[syscalls.IndexOf(syscalls.Min())].Parts;
        List<CallgrindProfile> fewestCycles = cycles.Count == 0 ? [] : repetitions[cycles.IndexOf(cycles.Min())].Parts;
        return new InstructionMeasurement
        {
            Workload = workload,
            OperationsPerRepetition = operations,
            InstructionsByRepetition = instructions,
            SystemCallsByRepetition = syscalls,
            EstimatedCyclesByRepetition = cycles,
            Methods = PerMethod(fewest.SelectMany(p => p.ExclusiveInstructions), map, operations),
            CallGraph = CallGraphOf(fewest, map, operations),
            SystemCallSites = PerMethod(fewestCalls.SelectMany(p => p.ExclusiveSystemCalls).Where(f => !InstructionMeter.IsTimingDependentSystemCall(f.Key)), map, operations),
            CycleMethods = PerMethod(fewestCycles.SelectMany(p => p.ExclusiveEstimatedCycles), map, operations),
            RuntimeVersion = runtimeVersion,
            ValgrindVersion = valgrindVersion,
        };
    }

    private static long CountedSystemCalls(CallgrindProfile part) =>
        Math.Max(0, part.SystemCalls - part.ExclusiveSystemCalls.Where(f => InstructionMeter.IsTimingDependentSystemCall(f.Key)).Sum(f => f.Value));

    private static List<MethodInstructions> PerMethod(IEnumerable<KeyValuePair<string, long>> functions, PerfMap map, int operations) =>
        functions
            .GroupBy(f => MethodName(map, f.Key), StringComparer.Ordinal)
            .Select(g => new MethodInstructions(g.Key, (double)g.Sum(f => f.Value) / operations))
            .OrderByDescending(m => m.PerOperation)
            .ToList();

    // The repetition's call graph at Callgrind's grain (several threads' parts added up), each function named as the
    // breakdown names it; null when the parts kept no calls (a profile by address).
    private static CallGraph? CallGraphOf(IReadOnlyList<CallgrindProfile> parts, PerfMap map, int operations)
    {
        var calls = parts.SelectMany(p => p.CallInstructions)
            .Where(c => c.Key.Caller != c.Key.Callee)
            .GroupBy(c => c.Key)
            .Select(g => new MethodCall(g.Key.Caller, g.Key.Callee, (double)g.Sum(c => c.Value) / operations))
            .ToList();
        if (calls.Count == 0)
        {
            return null;
        }

        var exclusive = parts.SelectMany(p => p.ExclusiveInstructions)
            .GroupBy(f => f.Key, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => (double)g.Sum(f => f.Value) / operations, StringComparer.Ordinal);
        var functions = exclusive.Keys.Concat(calls.SelectMany(c => new[] { c.Caller, c.Callee })).Distinct(StringComparer.Ordinal).ToList();
        var names = functions.ToDictionary(f => f, f => MethodName(map, f), StringComparer.Ordinal);
        var own = functions.Where(f => map.ModuleOf(f) is { } module && Diagnosing.InclusiveAttribution.IsOwnModule(module)).ToHashSet(StringComparer.Ordinal);
        return new CallGraph(exclusive, calls, names, own);
    }

    private static long EstimatedCycles(CallgrindProfile part)
    {
        var t = CallgrindProfile.CacheEvents.Select(part.Total).ToArray();
        return CallgrindProfile.EstimatedCycles(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]);
    }

    // Code without a symbol that the perf map does not name either is precompiled (ReadyToRun) framework code or a
    // runtime stub: grouped under one label, so the list still adds up to the whole.
    private static string MethodName(PerfMap map, string callgrindName) =>
        map.Resolve(callgrindName) ?? "[precompiled framework code or runtime stubs]";
}
