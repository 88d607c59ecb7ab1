using System.Diagnostics;

namespace PerfBudgets.Measuring;

/// <summary>
/// Measures what operations leave alive: runs a warm-up, reads the live heap, runs a first interval of operations,
/// reads again, runs a second interval, reads a third time (<see cref="RetainedMemoryMeasurement"/>). Allocation
/// budgets count what an operation allocates; this counts what stays reachable after it, the figure a leak moves.
/// </summary>
/// <remarks>
/// In the test's own process (<see cref="Measure"/>) each reading is a full, blocking, compacting collection with the
/// finalizers run, then <see cref="GC.GetTotalMemory(bool)"/>: what survived. For a server in its own process
/// (<see cref="MeasureAsync"/>) the caller passes the reading, e.g. <c>PerfBudgets.Diagnostics.GcHeapSnapshot</c>,
/// which also names the live types. The figure is the second interval's growth per operation, so a cache that fills
/// once is not a leak.
/// </remarks>
public static class RetainedMemoryMeter
{
    /// <summary>
    /// Runs <paramref name="operation"/> <paramref name="warmUp"/> times, then <paramref name="first"/> and
    /// <paramref name="second"/> times, reading the heap of this process with <paramref name="read"/> (default:
    /// <see cref="ReadThisProcess"/>) before and after each interval.
    /// </summary>
    public static RetainedMemoryMeasurement Measure(Action operation, int warmUp, int first, int second,
        Func<HeapReading>? read = null, string unit = "op")
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentOutOfRangeException.ThrowIfNegative(warmUp);
        ArgumentOutOfRangeException.ThrowIfLessThan(first, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(second, 1);
        read ??= ReadThisProcess;

        Run(operation, warmUp);
        var warm = read();
        Run(operation, first);
        var afterFirst = read();
        Run(operation, second);
        var afterSecond = read();
        return new RetainedMemoryMeasurement(warm, afterFirst, afterSecond, first, second, unit);
    }

    /// <summary>
    /// The same three readings around intervals driven by <paramref name="drive"/> (called with the number of
    /// operations to perform, e.g. requests to a server in another process), read with <paramref name="read"/>.
    /// </summary>
    public static async Task<RetainedMemoryMeasurement> MeasureAsync(Func<int, Task> drive, int warmUp, int first, int second,
        Func<Task<HeapReading>> read, string unit = "op")
    {
        ArgumentNullException.ThrowIfNull(drive);
        ArgumentNullException.ThrowIfNull(read);
        ArgumentOutOfRangeException.ThrowIfNegative(warmUp);
        ArgumentOutOfRangeException.ThrowIfLessThan(first, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(second, 1);

        if (warmUp > 0)
        {
            await drive(warmUp);
        }

        var warm = await read();
        await drive(first);
        var afterFirst = await read();
        await drive(second);
        var afterSecond = await read();
        return new RetainedMemoryMeasurement(warm, afterFirst, afterSecond, first, second, unit);
    }

    /// <summary>
    /// The live bytes of this process: a full blocking compacting collection, the pending finalizers, a second
    /// collection for what the finalizers released, then the bytes the collector counts as in use. Counts no objects
    /// and names no types.
    /// </summary>
    public static HeapReading ReadThisProcess()
    {
        var clock = Stopwatch.StartNew();
        FullCollection();
        // Read before the reading itself is allocated: an allocation right after the collection opens a fresh
        // allocation context, which the collector's count would take in.
        var liveBytes = GC.GetTotalMemory(forceFullCollection: false);
        return new HeapReading { LiveBytes = liveBytes, LiveObjects = -1, Cost = clock.Elapsed, GcHeaps = GCSettingsHeaps() };
    }

    /// <summary>A full, blocking, compacting collection (large objects too), then the finalizers, then another.</summary>
    public static void FullCollection()
    {
        System.Runtime.GCSettings.LargeObjectHeapCompactionMode = System.Runtime.GCLargeObjectHeapCompactionMode.CompactOnce;
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
    }

    private static void Run(Action operation, int count)
    {
        for (var i = 0; i < count; i++)
        {
            operation();
        }
    }

    private static int GCSettingsHeaps() => System.Runtime.GCSettings.IsServerGC ? Environment.ProcessorCount : 1;
}
