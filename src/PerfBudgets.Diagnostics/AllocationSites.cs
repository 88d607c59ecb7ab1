using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// Which methods an operation allocates in: the runtime's <c>AllocationSampled</c> events recorded over EventPipe on
/// this process, each with its stack (an in-process listener gets no stacks), resolved to methods by the session's
/// rundown. For <see cref="AllocationProfiler"/>, after its estimate by type: a second, shorter run of the same work.
/// </summary>
/// <remarks>
/// A sample is credited to the innermost frame in code of the program's own (outside <c>System.*</c>,
/// <c>Microsoft.*</c>, <c>netstandard</c> and the runtime), since a <c>new</c> in a library is rarely where the change
/// was made: a string built per call shows as the caller's method, not <c>String.Concat</c>. .NET 9 and later only
/// (the event); elsewhere the list is empty.
/// </remarks>
internal static class AllocationSites
{
    private const long AllocationSamplingKeyword = 0x80000000000;
    private const int AllocationSampledId = 303;
    private static readonly HashSet<string> OwnTypes = typeof(AllocationSites).Assembly.GetTypes()
        .Select(t => t.FullName!.Split('+')[0]).ToHashSet(StringComparer.Ordinal);

    /// <summary>
    /// Runs <paramref name="runOperations"/> in growing batches for <paramref name="duration"/> and returns the allocating
    /// methods of the program's own code (the callees' allocations folded in) and the innermost frames that allocated,
    /// whatever their assembly, most bytes first.
    /// </summary>
    public static (IReadOnlyList<MethodAllocation> Own, IReadOnlyList<MethodAllocation> Innermost) Record(Func<long, bool> countThread, Action<int> runOperations, TimeSpan duration)
    {
        if (Environment.Version.Major < 9)
        {
            return ([], []);
        }

        var providers = new[]
        {
            new EventPipeProvider(RuntimeKeywords.Provider, EventLevel.Informational, AllocationSamplingKeyword | RuntimeKeywords.MethodNames),
        };
        return EventPipeRecording.RecordAsync(Environment.ProcessId, providers, () => Task.FromResult(BatchedRun.For(duration, runOperations)),
            (log, operations, copyThread) => Read(log, id => id != copyThread && countThread(id), operations)).GetAwaiter().GetResult();
    }

    private static (IReadOnlyList<MethodAllocation> Own, IReadOnlyList<MethodAllocation> Innermost) Read(TraceLog log, Func<long, bool> countThread, long operations)
    {
        var byMethod = new Dictionary<string, (double Bytes, int Samples)>(StringComparer.Ordinal);
        var byFrame = new Dictionary<string, (double Bytes, int Samples)>(StringComparer.Ordinal);
        foreach (var e in log.Events)
        {
            if ((int)e.ID != AllocationSampledId || e.ProviderName != RuntimeKeywords.Provider || !countThread(e.ThreadID))
            {
                continue;
            }

            var size = AllocationProfiler.Upscale(ObjectSize(e));
            var (method, innermost) = OwnFrames.Of(e.CallStack());
            if (IsProfilers(method))
            {
                // The recorder's own work on the measuring thread (stopping the session), not the operation's.
                continue;
            }

            Add(byMethod, method, size);
            Add(byFrame, innermost, size);
        }

        return (PerOperation(byMethod, operations), PerOperation(byFrame, operations));

        static void Add(Dictionary<string, (double Bytes, int Samples)> tally, string method, double bytes)
        {
            var (sum, samples) = tally.GetValueOrDefault(method);
            tally[method] = (sum + bytes, samples + 1);
        }
    }

    private static List<MethodAllocation> PerOperation(Dictionary<string, (double Bytes, int Samples)> tally, long operations) =>
        tally
            .Select(m => new MethodAllocation(m.Key, m.Value.Bytes / Math.Max(operations, 1), m.Value.Samples))
            .OrderByDescending(m => m.BytesPerOperation)
            .ThenBy(m => m.Method, StringComparer.Ordinal)
            .ToList();

    // ObjectSize by name where TraceEvent knows the event; else from the payload's layout (AllocationKind u32,
    // ClrInstanceID u16, TypeID pointer, TypeName UTF-16 zero-terminated, HeapIndex u32, Address pointer, ObjectSize u64).
    private static double ObjectSize(TraceEvent e)
    {
        if (e.PayloadIndex("ObjectSize") is var index and >= 0)
        {
            return Convert.ToDouble(e.PayloadValue(index), System.Globalization.CultureInfo.InvariantCulture);
        }

        var data = e.EventData();
        var at = 4 + 2 + e.PointerSize;
        while (at + 1 < data.Length && (data[at] != 0 || data[at + 1] != 0))
        {
            at += 2;
        }

        at += 2 + 4 + e.PointerSize;
        return at + 8 <= data.Length ? BitConverter.ToUInt64(data, at) : 0;
    }

    // A method of this assembly's types ("Namespace.Type+Nested.Method"): the profiler's own work.
    private static bool IsProfilers(string method)
    {
        var dot = method.LastIndexOf('.');
        return dot > 0 && OwnTypes.Contains(method[..dot].Split('+')[0]);
    }
}
