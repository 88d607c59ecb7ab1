using System.Runtime.CompilerServices;

namespace PerfBudgets.Measuring;

/// <summary>
/// Measures allocated bytes per operation, the way BenchmarkDotNet's memory diagnoser does: warm up first (JIT,
/// tiering, lazy statics, pools), force a full GC before the measured region and never during it, run the operation
/// N times, and divide the allocation delta by N.
/// </summary>
public static class AllocationMeter
{
    /// <summary>
    /// Runs <paramref name="operation"/> on the current thread and measures with
    /// <see cref="GC.GetAllocatedBytesForCurrentThread"/>: exact and unaffected by other threads.
    /// Use it for code that stays on the calling thread.
    /// </summary>
    public static AllocationMeasurement PerOperation(Action operation, int operations, int warmupOperations = 1_000)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(operations);
        ArgumentOutOfRangeException.ThrowIfNegative(warmupOperations);
        BuildOptimization.EnsureOptimized();

        Repeat(operation, warmupOperations);
        PrepareForMeasurement();
        var gen0Before = GC.CollectionCount(0);
        var before = GC.GetAllocatedBytesForCurrentThread();
        Repeat(operation, operations);
        var after = GC.GetAllocatedBytesForCurrentThread();
        return new AllocationMeasurement(after - before, operations, GC.CollectionCount(0) - gen0Before);
    }

    /// <summary>
    /// Runs <paramref name="operation"/> and measures with <see cref="GC.GetTotalAllocatedBytes(bool)"/> over the whole process.
    /// </summary>
    /// <remarks>
    /// An awaited operation may resume on any thread-pool thread, so a per-thread counter would miss what it
    /// allocates after the first await; the process-wide counter sees every thread, which is also why callers must
    /// run this inside a test collection that runs alone (nothing else may allocate in the process meanwhile).
    /// </remarks>
    public static async Task<AllocationMeasurement> PerOperationProcessWideAsync(Func<ValueTask> operation, int operations, int warmupOperations = 1_000)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(operations);
        ArgumentOutOfRangeException.ThrowIfNegative(warmupOperations);
        BuildOptimization.EnsureOptimized();

        for (var i = 0; i < warmupOperations; i++)
        {
            await operation();
        }

        PrepareForMeasurement();
        var gen0Before = GC.CollectionCount(0);
        var before = GC.GetTotalAllocatedBytes(precise: true);
        for (var i = 0; i < operations; i++)
        {
            await operation();
        }

        var after = GC.GetTotalAllocatedBytes(precise: true);
        return new AllocationMeasurement(after - before, operations, GC.CollectionCount(0) - gen0Before);
    }

    /// <summary>
    /// Measures what the rest of the process allocates per operation while the calling thread runs
    /// <paramref name="operation"/>: the server side of a conversation whose client runs on this thread (an HTTP
    /// probe, a blocking socket client). Each batch takes the process-wide delta and subtracts the calling thread's
    /// own bytes; run it where nothing else in the process is under test (a collection that runs alone).
    /// </summary>
    /// <remarks>The caller warms up (connections, JIT, pools) before calling; the batches are all measured.</remarks>
    public static CallerExcludedMeasurement PerOperationExcludingCaller(Action operation, int operations, int batches)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(operations);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(batches);
        BuildOptimization.EnsureOptimized();

        var perBatch = new double[batches];
        long callerBytes = 0;
        var gen0 = 0;
        for (var batch = 0; batch < batches; batch++)
        {
            var region = StartProcessWide();
            var callerBefore = GC.GetAllocatedBytesForCurrentThread();
            Repeat(operation, operations);
            var batchCallerBytes = GC.GetAllocatedBytesForCurrentThread() - callerBefore;
            var process = region.Stop(operations);
            callerBytes += batchCallerBytes;
            gen0 += process.Gen0Collections;
            perBatch[batch] = (double)(process.TotalBytes - batchCallerBytes) / operations;
        }

        return new CallerExcludedMeasurement(perBatch, operations, callerBytes, gen0);
    }

    /// <summary>
    /// Measures a region that the caller runs itself (a load loop, a socket loop) process-wide.
    /// Start it after warm-up; read it with <see cref="ProcessWideRegion.Stop(long)"/>.
    /// </summary>
    public static ProcessWideRegion StartProcessWide()
    {
        BuildOptimization.EnsureOptimized();
        PrepareForMeasurement();
        return new ProcessWideRegion(GC.GetTotalAllocatedBytes(precise: true), GC.CollectionCount(0));
    }

    /// <summary>A process-wide measured region started by <see cref="StartProcessWide"/>.</summary>
    public readonly struct ProcessWideRegion
    {
        private readonly long _startBytes;
        private readonly int _startGen0;

        internal ProcessWideRegion(long startBytes, int startGen0)
        {
            _startBytes = startBytes;
            _startGen0 = startGen0;
        }

        /// <summary>Ends the region; <paramref name="operations"/> is how many operations ran inside it.</summary>
        public AllocationMeasurement Stop(long operations) =>
            new(GC.GetTotalAllocatedBytes(precise: true) - _startBytes, operations, GC.CollectionCount(0) - _startGen0);
    }

    // Not inlined so the loop's own locals never live in the caller's frame, as BenchmarkDotNet does.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Repeat(Action operation, int count)
    {
        for (var i = 0; i < count; i++)
        {
            operation();
        }
    }

    private static void PrepareForMeasurement()
    {
        // The counters themselves allocate nothing, but the first read can initialise runtime state; read once first.
        _ = GC.GetAllocatedBytesForCurrentThread();
        _ = GC.GetTotalAllocatedBytes(precise: true);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }
}
