using System.Globalization;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// Counts an in-process workload on every thread of its process: the workload host runs under Callgrind as a
/// <see cref="ServedWorkload"/>, and <see cref="CallgrindServer"/> counts it from outside through vgdb, one
/// <c>run 1</c> line per operation, each sent once the host has gone quiet.
/// </summary>
/// <remarks>
/// <see cref="InstructionRegion.Measure"/> counts only the thread that marks the region: Callgrind switches collection
/// per thread, and a client-request zero or dump acts on the calling thread only (a monitor command's zero and dump act
/// on all threads). A workload that hands its work to other threads (an asynchronous file copy, whose reads and writes
/// run on pool threads) needs this mode: every thread collects, and each round holds all the work its operations
/// caused, the completions and what the pool threads did after them included. Each operation adds the host's read of
/// its command line and write of its answer: two system calls, the same in every round.
/// <para>
/// A run is reused as <see cref="InstructionMeter.RunProcess"/>'s is: when a stored run had byte-identical inputs (the
/// start, Valgrind, the kernel, every file of the host's folder, the workload's name and its operations per phase, and
/// every file the stored run mapped, read from the host's <c>/proc/PID/maps</c> once it has answered its check).
/// </para>
/// </remarks>
public static class CallgrindWorkloadHost
{
    /// <summary>
    /// Starts <paramref name="assemblyPath"/> with <paramref name="arguments"/> under Callgrind, waits for it to be
    /// ready, runs <paramref name="warmUpOperations"/> uncounted, then counts <paramref name="rounds"/> rounds of
    /// <paramref name="operations"/> operations, and asks for the workload's check.
    /// </summary>
    /// <param name="assemblyPath">The workload host's .dll, run with <see cref="InstructionMeter.DotnetHost"/>.</param>
    /// <param name="arguments">The host's arguments (which workload to serve).</param>
    /// <param name="workload">The name the rounds are dumped and measured under.</param>
    /// <param name="warmUpOperations">Operations run before counting starts.</param>
    /// <param name="operations">Operations per counted round.</param>
    /// <param name="rounds">Counted rounds; the meter gates the smallest.</param>
    /// <param name="timeout">
    /// How long the whole run may take before the host is killed, counting only the time the machine's other processes
    /// leave it (up to six times on the wall clock), as <see cref="InstructionMeter.RunProcess"/>'s.
    /// </param>
    /// <param name="environment">
    /// Optional: variables added to the host's environment (<see cref="CallgrindServer.SteadyServerEnvironment"/> for a
    /// workload that hands its work to the thread pool); part of the key.
    /// </param>
    /// <returns>The measurement and the host's check line (<c>ok ...</c> or <c>FAILED ...</c>).</returns>
    /// <exception cref="InstructionMeterException">Valgrind is unavailable, or the host failed or timed out.</exception>
    public static (InstructionMeasurement Measurement, string Check) Measure(string assemblyPath, IEnumerable<string> arguments, string workload,
        int warmUpOperations, int operations, int rounds, TimeSpan timeout, IReadOnlyDictionary<string, string>? environment = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(assemblyPath);
        ArgumentNullException.ThrowIfNull(arguments);
        using var callgrind = new CallgrindServer();
        var start = callgrind.StartInfo(InstructionMeter.DotnetHost, [assemblyPath, .. arguments]);
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        var hostDirectory = Path.GetDirectoryName(Path.GetFullPath(assemblyPath))!;
        start.WorkingDirectory = hostDirectory;
        var valgrindVersion = Valgrind.Current.Version!;
        var store = CountStore.Open();
        var key = store is null ? null : CountKey.TryOf(start, valgrindVersion, hostDirectory, callgrind.OutputDirectory,
            [$"served workload {workload}", string.Create(CultureInfo.InvariantCulture, $"warm-up {warmUpOperations}, {rounds} rounds of {operations}")]);
        string? notReusedBecause = null;
        if (key is not null && store!.TryLoad(key, out notReusedBecause) is { } stored)
        {
            return (CallgrindMeasurement.From(workload, stored.Parts, stored.Map, InstructionMeter.RuntimeVersion, valgrindVersion) with { Reused = stored.Reused },
                stored.StandardOutput);
        }

        var deadline = new BusyMachineDeadline(timeout);
        ChildProcess host;
        try
        {
            host = ChildProcess.Start(start, $"the served workload host {Path.GetFileName(assemblyPath)} under Callgrind", interactive: true);
        }
        catch (ChildProcessException e)
        {
            throw new InstructionMeterException(e.Message, e);
        }

        using (host)
        {
            // Every answer is awaited for what is left of the whole run's timeout, so the run ends on time however
            // the host stops answering.
            string Expect(string expected)
            {
                string? line;
                try
                {
                    line = host.ReadLine(deadline, $"'{expected}'");
                }
                catch (ChildProcessException e)
                {
                    throw new InstructionMeterException(e.Message, e);
                }

                return line is not null && line.StartsWith(expected, StringComparison.Ordinal)
                    ? line
                    : throw new InstructionMeterException($"The served workload host answered '{line ?? "(end of output)"}' instead of '{expected}': {InstructionMeter.Tail(host.StandardErrorTail.Replace(" | ", "\n", StringComparison.Ordinal))}");
            }

            Expect("ready");
            void RunOne()
            {
                host.WriteLine("run 1");
                Expect("done");
            }

            CallgrindServer.WarmUp(host.Process.Id, RunOne, warmUpOperations);
            var measurement = callgrind.Measure(host.Process.Id, workload, RunOne, operations, rounds);
            host.WriteLine("check");
            var check = Expect("check ")["check ".Length..];
            var notStoredBecause = CountStore.SaveIfKeyed(store, key, (keptIn, keyed) =>
                Store(keptIn, keyed, host.Process.Id, hostDirectory, callgrind.OutputDirectory, check));
            return (measurement with { NotReusedBecause = notReusedBecause, NotStoredBecause = notStoredBecause }, check);
        }
    }

    // The files the running host has mapped (the runtime, native libraries, every assembly it loaded, Valgrind's tool:
    // Valgrind runs the program in its own process) are read from outside, once the check has run everything the
    // workload loads; with the dumps, the perf map and the check line they are the stored run.
    private static string? Store(CountStore store, CountInputs key, int processId, string hostDirectory, string outputDirectory, string check)
    {
        var mapped = Path.Combine(outputDirectory, "mapped-files");
        try
        {
            File.WriteAllLines(mapped, CountKey.MappedFiles(string.Create(CultureInfo.InvariantCulture, $"/proc/{processId}/maps")));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return $"the host's mapped files could not be read ({e.Message})";
        }

        return store.Save(key, hostDirectory, mapped, check, InstructionMeter.DumpFiles(outputDirectory), PerfMap.PathFor(processId));
    }
}
