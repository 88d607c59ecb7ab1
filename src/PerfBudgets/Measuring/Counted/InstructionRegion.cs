using System.Globalization;
using PerfBudgets.Budgets;

namespace PerfBudgets.Measuring;

/// <summary>
/// The side of the instruction meter that runs inside the measured process, under Callgrind: it warms an operation
/// up uninstrumented, then counts a few repetitions of it, each written to a Callgrind dump of its own, named so
/// that <see cref="InstructionMeter"/> can read the count per operation back.
/// </summary>
/// <remarks>
/// A repetition counts the calling thread: Callgrind keeps collection switched per thread, and a client request toggles
/// it in the thread that makes it (a client-request dump, likewise, writes that thread's counts only). That keeps the
/// figure free of every other thread's timing-dependent work; work an operation hands to the thread pool (an
/// asynchronous file read, a socket completion that did not complete inline) is not in it. A server, counted from
/// outside by <see cref="CallgrindServer"/>, is counted on every thread.
/// A workload host (a console program of the adopting repository) calls <see cref="Measure"/> once per workload;
/// <see cref="InstructionMeter"/> starts that host under Callgrind. Outside Valgrind every request is a
/// no-op, so the same host runs natively too (the repetitions are then simply run).
/// </remarks>
public static class InstructionRegion
{
    /// <summary>The prefix of every dump name: <c>perfbudgets:NAME:OPERATIONS:REPETITION</c>.</summary>
    public const string DumpPrefix = "perfbudgets";

    /// <summary>
    /// Runs <paramref name="runOperations"/> with <paramref name="warmUpOperations"/> uninstrumented (lazy
    /// initialisation, JIT), then <paramref name="repetitions"/> times with <paramref name="operations"/> counted,
    /// each repetition in a dump of its own.
    /// </summary>
    /// <param name="name">The workload's name; letters, digits, dots and dashes.</param>
    /// <param name="runOperations">Runs the given number of operations and returns when they are done.</param>
    /// <param name="operations">Operations per counted repetition.</param>
    /// <param name="warmUpOperations">Operations run before counting starts.</param>
    /// <param name="repetitions">Counted repetitions; the meter gates the smallest, so background work that lands in one does not count.</param>
    public static void Measure(string name, Action<int> runOperations, int operations, int warmUpOperations, int repetitions = 3)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(runOperations);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(operations);
        ArgumentOutOfRangeException.ThrowIfNegative(warmUpOperations);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(repetitions);
        if (name.Any(c => !(char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '_')))
        {
            throw new ArgumentException($"A workload name may hold letters, digits, '.', '-' and '_' only: '{name}'.", nameof(name));
        }

        if (warmUpOperations > 0)
        {
            runOperations(warmUpOperations);
        }

        for (var repetition = 0; repetition < repetitions; repetition++)
        {
            // Settle the heap first so a collection owed by the warm-up is not paid inside the counted region.
            GC.Collect();
            GC.WaitForPendingFinalizers();
            CallgrindRequests.StartInstrumentation();
            CallgrindRequests.ZeroStats();
            CallgrindRequests.ToggleCollect();
            runOperations(operations);
            CallgrindRequests.ToggleCollect();
            CallgrindRequests.DumpStatsAt(string.Create(CultureInfo.InvariantCulture, $"{DumpPrefix}:{name}:{operations}:{repetition}"));
            CallgrindRequests.StopInstrumentation();
        }

        ListMappedFiles();
    }

    // Under the meter, the files this process has mapped by the end of a workload's counting (the runtime, native
    // libraries, the assemblies the workload loaded) are appended to the list the meter asked for: they are the inputs
    // its stored run must find unchanged before it is reused (CountStore). Read from the process itself, not guessed.
    private static void ListMappedFiles()
    {
        if (HarnessEnvironment.MappedFilesList is { } list && File.Exists("/proc/self/maps"))
        {
            File.AppendAllLines(list, CountKey.MappedFiles("/proc/self/maps"));
        }
    }
}
