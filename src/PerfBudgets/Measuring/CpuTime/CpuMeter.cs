using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace PerfBudgets.Measuring;

/// <summary>
/// Measures the CPU time an operation costs, in a way that holds on a shared, noisy machine without hardware
/// counters: CPU time rather than wall time (waiting for a core is not counted), warm-up until tiered compilation
/// has fallen quiet, many short batches, and each batch paired with a batch of the fixed
/// <see cref="CalibrationKernel"/> on the same thread, so a budget is a unitless cost that carries across machines.
/// </summary>
/// <remarks>
/// The design follows duet benchmarking (run the compared workloads side by side so interference hits both) and
/// relative performance assertions ("A costs at most 1.3 × B"); <see cref="CpuMeasurement.Cost"/> says which figure
/// of the batches is gated and why. Run it where nothing else in the process is being measured.
/// </remarks>
public static class CpuMeter
{
    /// <summary>
    /// The CPU cost of <paramref name="operation"/> on the calling thread's CPU clock. Use it for code that stays on
    /// the calling thread (a codec, a serializer); work it hands to other threads is not seen.
    /// </summary>
    public static CpuMeasurement PerOperation(Action operation) => PerOperation(operation, options: null);

    /// <summary>As <see cref="PerOperation(Action)"/>, with sampling settings (null for the defaults): fewer batches or a shorter warm-up for a quick check.</summary>
    public static CpuMeasurement PerOperation(Action operation, CpuMeterOptions? options)
    {
        ArgumentNullException.ThrowIfNull(operation);
        return Measure(CpuClock.ThreadNanoseconds, count => Repeat(operation, count), CpuClock.ThreadClockSource, options ?? CpuMeterOptions.Default);
    }

    /// <summary>
    /// The CPU cost per operation of work the calling thread drives but that runs on several threads of this process
    /// (a socket loop whose completions may land on pool threads): the process's CPU clock over each batch.
    /// Background work in the process (a GC, a tier-1 compile) lands in some batches, which the low quantile leaves out.
    /// </summary>
    /// <param name="runOperations">Runs the given number of operations and returns when they are done.</param>
    public static CpuMeasurement PerOperationProcessWide(Action<int> runOperations) => PerOperationProcessWide(runOperations, options: null);

    /// <summary>As <see cref="PerOperationProcessWide(Action{int})"/>, with sampling settings (null for the defaults).</summary>
    public static CpuMeasurement PerOperationProcessWide(Action<int> runOperations, CpuMeterOptions? options)
    {
        ArgumentNullException.ThrowIfNull(runOperations);
        return Measure(CpuClock.CurrentProcessNanoseconds, runOperations, "this process's CPU clock (all threads)", options ?? CpuMeterOptions.Default);
    }

    /// <summary>
    /// The CPU cost per operation that another process spends serving operations this thread drives: a server in
    /// its own process, a client on the calling thread. Each batch reads the server's CPU clock before and after
    /// <paramref name="runOperations"/> and divides by the operations; the calibration kernel runs on this thread
    /// between batches. The client's own CPU is not counted.
    /// </summary>
    /// <param name="serverProcessId">The server's process id.</param>
    /// <param name="runOperations">Sends the given number of requests (or frames) and returns when all are answered.</param>
    public static CpuMeasurement PerServerOperation(int serverProcessId, Action<int> runOperations) => PerServerOperation(serverProcessId, runOperations, options: null);

    /// <summary>
    /// As <see cref="PerServerOperation(int, Action{int})"/>, with sampling settings (null for the defaults; the server's
    /// code warms up by being driven until its cost stops falling).
    /// </summary>
    public static CpuMeasurement PerServerOperation(int serverProcessId, Action<int> runOperations, CpuMeterOptions? options)
    {
        ArgumentNullException.ThrowIfNull(runOperations);
        return Measure(CpuClock.ForProcess(serverProcessId), runOperations, $"server process {serverProcessId}'s CPU clock", options ?? CpuMeterOptions.Default);
    }

    private static CpuMeasurement Measure(Func<long> clock, Action<int> runOperations, string clockName, CpuMeterOptions options)
    {
        options.Validate();
        BuildOptimization.EnsureOptimized();
        var (operations, units, warmUp, steady) = WarmUp(clock, runOperations, options);

        var operationNs = new double[options.Batches];
        var calibrationNs = new double[options.Batches];
        for (var batch = 0; batch < options.Batches; batch++)
        {
            // Alternate which of the pair runs first, so neither always follows the other's cache footprint.
            if ((batch & 1) == 0)
            {
                operationNs[batch] = TimeOperations(clock, runOperations, operations);
                calibrationNs[batch] = TimeCalibration(units);
            }
            else
            {
                calibrationNs[batch] = TimeCalibration(units);
                operationNs[batch] = TimeOperations(clock, runOperations, operations);
            }
        }

        return new CpuMeasurement(operationNs, calibrationNs, operations, units, warmUp, steady, clockName);
    }

    private static (int Operations, int Units, TimeSpan WarmUp, bool Steady) WarmUp(Func<long> clock, Action<int> runOperations, CpuMeterOptions options)
    {
        var targetNs = options.TargetBatchTime.Ticks * 100.0;
        var started = Stopwatch.GetTimestamp();
        var operations = 1;
        var units = 1;
        var bestOperationNs = double.MaxValue;
        var bestCalibrationNs = double.MaxValue;
        var lastChange = started;
        var jitCount = System.Runtime.JitInfo.GetCompiledMethodCount();
        while (true)
        {
            var operationNs = TimeOperations(clock, runOperations, operations);
            var calibrationNs = TimeCalibration(units);
            var now = Stopwatch.GetTimestamp();

            // Steady means: the JIT has compiled nothing new, and the operation has not become 2% cheaper, for a
            // whole quiet window. A server in another process has its own JIT, which only the second test sees.
            var newJitCount = System.Runtime.JitInfo.GetCompiledMethodCount();
            if (newJitCount != jitCount || operationNs < bestOperationNs * 0.98)
            {
                lastChange = now;
            }

            jitCount = newJitCount;
            bestOperationNs = Math.Min(bestOperationNs, operationNs);
            bestCalibrationNs = Math.Min(bestCalibrationNs, calibrationNs);
            operations = Size(targetNs, operationNs, operations);
            units = Size(targetNs, calibrationNs, units);

            var elapsed = Stopwatch.GetElapsedTime(started, now);
            var quiet = Stopwatch.GetElapsedTime(lastChange, now) >= options.QuietJitWindow;
            if ((elapsed >= options.MinimumWarmUp && quiet) || elapsed >= options.MaximumWarmUp)
            {
                return (Size(targetNs, bestOperationNs, int.MaxValue), Size(targetNs, bestCalibrationNs, int.MaxValue), elapsed, quiet);
            }
        }
    }

    // How many operations of the given cost fill the target batch; grows at most 4x a step while the cost is still
    // falling from tier-0 levels, so a slow first call does not decide the batch size.
    private static int Size(double targetNs, double nanosecondsPerOperation, int current)
    {
        var wanted = targetNs / Math.Max(nanosecondsPerOperation, 1);
        return (int)Math.Clamp(Math.Min(wanted, current * 4.0), 1, 10_000_000);
    }

    private static double TimeOperations(Func<long> clock, Action<int> runOperations, int operations)
    {
        var before = clock();
        runOperations(operations);
        return (double)(clock() - before) / operations;
    }

    private static double TimeCalibration(int units)
    {
        var before = CpuClock.ThreadNanoseconds();
        Sink = CalibrationKernel.Run(units);
        return (double)(CpuClock.ThreadNanoseconds() - before) / units;
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

    // Keeps the kernel's result observable so the JIT cannot drop the work.
    private static ulong Sink { get; set; }
}
