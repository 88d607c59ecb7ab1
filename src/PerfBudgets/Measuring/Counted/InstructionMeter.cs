using System.Diagnostics;
using PerfBudgets.Budgets;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// Counts the instructions and system calls an operation costs, by running it in a child process under Valgrind's
/// Callgrind: a count does not depend on the machine's speed, its load or its kernel, so a budget on it can be tight
/// (a 2% regression fails it) and hold on any CI runner with the same runtime and Valgrind.
/// </summary>
/// <remarks>
/// <para>
/// The child is a workload host: a console program that calls <see cref="InstructionRegion.Measure"/> per workload. It
/// runs under <c>valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no</c>, so nothing is counted until a
/// region starts, and each counted repetition is dumped by name. <see cref="RunProcess"/> reads every dump and the
/// runtime's perf map (to name JIT-compiled methods) and removes them.
/// </para>
/// <para>
/// The counts repeat exactly only when the runtime does the same thing in every run: <see cref="DeterministicEnvironment"/>
/// lists the settings and why each is there. Address-space randomization is turned off with <c>setarch -R</c>.
/// </para>
/// </remarks>
public static partial class InstructionMeter
{
    /// <summary>
    /// The runtime settings under which counts repeat from process to process, set on every child the meter starts.
    /// </summary>
    /// <remarks>
    /// Tiering off (<c>TieredCompilation=0</c>): a method is compiled once, fully optimized, when first called, and never
    /// replaced; with tiering, which code a counted repetition runs depends on when the background compiler finished,
    /// and under Valgrind's slowdown that moved counts by 40% between repetitions. Precompiled (ReadyToRun) framework
    /// code is then kept as it is, which is the same bytes on every machine with the same runtime. <c>TieredPGO=0</c>:
    /// no profile-guided recompilation. <c>EnableWriteXorExecute=0</c>: no double mapping of JIT code, which Valgrind
    /// would otherwise have to follow. Workstation, non-concurrent GC with a fixed 64 MB gen-0 budget: no background GC
    /// thread, and collections happen at the same allocation points whatever the machine's cache sizes.
    /// <c>ThreadPool_UnfairSemaphoreSpinLimit=0</c>: an idle pool thread sleeps at once instead of spinning for a
    /// length of time that depends on the machine. The diagnostics server and debugger are off (no IPC thread
    /// polling), and <c>PerfMapEnabled=3</c> writes the perf map that names JIT-compiled code.
    /// </remarks>
    public static IReadOnlyDictionary<string, string> DeterministicEnvironment { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["DOTNET_TieredCompilation"] = "0",
        ["DOTNET_TieredPGO"] = "0",
        ["DOTNET_EnableWriteXorExecute"] = "0",
        ["DOTNET_gcServer"] = "0",
        ["DOTNET_gcConcurrent"] = "0",
        ["DOTNET_GCgen0size"] = "0x4000000",
        ["DOTNET_ThreadPool_UnfairSemaphoreSpinLimit"] = "0",
        ["DOTNET_EnableDiagnostics_IPC"] = "0",
        ["DOTNET_EnableDiagnostics_Debugger"] = "0",
        ["DOTNET_EnableDiagnostics_Profiler"] = "0",
        ["DOTNET_PerfMapEnabled"] = "3",
    };

    /// <summary>
    /// The version of the runtime a child runs on: the repository's pinned runtime (<see cref="CountedRuntime"/>), else
    /// the one running this process, which the child rolls forward to as well.
    /// </summary>
    public static string RuntimeVersion => CountedRuntime.Current.Version;

    /// <summary>
    /// Why nothing can be counted on this machine (Valgrind not found, not Linux x86-64, a CPU without the pinned
    /// instruction sets), or null when it can. A counted budget that cannot be measured is reported with this reason
    /// (<see cref="BudgetGate.NotMeasured"/>), never passed.
    /// </summary>
    public static string? UnavailableReason => Valgrind.Current.UnavailableReason;

    /// <summary>
    /// Runs <paramref name="assemblyPath"/> (a workload host) under Callgrind with <paramref name="arguments"/> and
    /// returns its counted regions.
    /// </summary>
    /// <param name="assemblyPath">The host's .dll, run with the dotnet host that runs this process.</param>
    /// <param name="arguments">The host's arguments (which workloads to run).</param>
    /// <param name="timeout">
    /// How long the whole run may take before it is killed, counting only the time the machine's other processes leave
    /// it: busy neighbours stretch it, up to six times on the wall clock (a counted run is slow, and starved is not hung).
    /// </param>
    /// <param name="cacheSimulation">
    /// True to run Callgrind's cache simulation for the estimated-cycles figure; it slows the run by about half again.
    /// </param>
    /// <remarks>
    /// A run is reused when a stored one had byte-identical inputs: the same start (program, arguments, working folder,
    /// the runtime's, loader's, C library's and Valgrind's variables), the same Valgrind, the same files in the host's
    /// folder, and the same content in every file the stored run mapped (the runtime, native libraries, Valgrind's
    /// tool). Its measurements then carry <see cref="InstructionMeasurement.Reused"/>, which their detail states. The
    /// store is <c>artifacts/reuse/</c> beside <c>budgets.json</c> or <c>PERF_REUSE_DIR</c>; <c>PERF_REUSE=off</c> counts
    /// every run.
    /// </remarks>
    /// <exception cref="InstructionMeterException">Valgrind is unavailable, the host failed, or it timed out.</exception>
    public static CallgrindRun RunProcess(string assemblyPath, IEnumerable<string> arguments, TimeSpan timeout, bool cacheSimulation = false)
    {
        ArgumentException.ThrowIfNullOrEmpty(assemblyPath);
        ArgumentNullException.ThrowIfNull(arguments);
        var valgrind = Valgrind.Current;
        if (!valgrind.IsAvailable)
        {
            throw new InstructionMeterException($"not measured ({valgrind.UnavailableReason})");
        }

        var output = Directory.CreateTempSubdirectory("perfbudgets-callgrind-");
        try
        {
            var start = StartInfo(valgrind, output.FullName, [DotnetHost, assemblyPath, .. arguments], cacheSimulation, separateThreads: true, countFromStart: false);
            var hostDirectory = Path.GetDirectoryName(Path.GetFullPath(assemblyPath))!;
            start.WorkingDirectory = hostDirectory;
            var store = CountStore.Open();
            var key = store is null ? null : CountKey.TryOf(start, valgrind.Version!, hostDirectory, output.FullName);
            string? notReusedBecause = null;
            if (key is not null && store!.TryLoad(key, out notReusedBecause) is { } stored)
            {
                return new CallgrindRun(stored.StandardOutput, stored.Parts, stored.Map, RuntimeVersion, valgrind.Version!) { Reused = stored.Reused };
            }

            var mappedFiles = Path.Combine(output.FullName, "mapped-files");
            start.Environment[CountKey.MappedFilesVariable] = mappedFiles;
            ChildProcess host;
            try
            {
                host = ChildProcess.Start(start, $"the workload host {Path.GetFileName(assemblyPath)} under Callgrind");
            }
            catch (ChildProcessException e)
            {
                throw new InstructionMeterException(e.Message, e);
            }

            using (host)
            {
                var deadline = new BusyMachineDeadline(timeout);
                var run = host.WaitForExit(deadline);
                if (run.TimedOut)
                {
                    throw new InstructionMeterException($"The workload host under Callgrind did not finish within {deadline}: {assemblyPath}; its standard error ended: {run.ErrorTail}");
                }

                if (run.ExitCode != 0)
                {
                    throw new InstructionMeterException($"The workload host under Callgrind exited with {run.ExitCode}: {Tail(run.ErrorTail)}");
                }

                // The perf map moves in with the dumps: read from there, stored from there, and removed with them.
                var perfMap = PerfMap.PathFor(host.Process.Id);
                var keptMap = Path.Combine(output.FullName, "perf.map");
                if (File.Exists(perfMap))
                {
                    File.Move(perfMap, keptMap);
                }

                var map = File.Exists(keptMap) ? PerfMap.Read(keptMap) : PerfMap.Empty;
                var dumps = DumpFiles(output.FullName).ToList();
                var parts = dumps.Select(CallgrindProfile.Read).ToList();
                var notStoredBecause = CountStore.SaveIfKeyed(store, key, (keptIn, keyed) =>
                    keptIn.Save(keyed, hostDirectory, mappedFiles, run.Output, dumps, File.Exists(keptMap) ? keptMap : null));
                return new CallgrindRun(run.Output, parts, map, RuntimeVersion, valgrind.Version!) { NotReusedBecause = notReusedBecause, NotStoredBecause = notStoredBecause };
            }
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    /// <summary>
    /// The dotnet muxer the children start with: the pinned runtime's (<see cref="CountedRuntime"/>), else the one that
    /// runs this process (set by the SDK in tests), else <c>dotnet</c> on PATH.
    /// </summary>
    public static string DotnetHost => CountedRuntime.Current.DotnetHost;

    /// <summary>
    /// The start of a process under Callgrind, with address randomization off and <see cref="DeterministicEnvironment"/>
    /// and the pinned instruction sets (<see cref="CountedIsa.Environment"/>) set. Profiles go to <paramref name="outputDirectory"/>: a dump as <c>callgrind.out.PID.N</c> (<c>.N-TT</c> per thread), which is what the meter reads; the file of the final dump at exit (<c>callgrind.out.PID</c>) holds nothing counted.
    /// </summary>
    internal static ProcessStartInfo StartInfo(Valgrind valgrind, string outputDirectory, IReadOnlyList<string> command, bool cacheSimulation, bool separateThreads, bool countFromStart, bool instrumentFromStart = false)
    {
        var setarch = File.Exists("/usr/bin/setarch") ? "/usr/bin/setarch" : null;
        var start = new ProcessStartInfo(setarch ?? valgrind.Path!)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (setarch is not null)
        {
            start.ArgumentList.Add("-R");
            start.ArgumentList.Add(valgrind.Path!);
        }

        foreach (var argument in new[]
        {
            "--tool=callgrind", instrumentFromStart ? "--instr-atstart=yes" : "--instr-atstart=no", countFromStart ? "--collect-atstart=yes" : "--collect-atstart=no",
            "--smc-check=all", "--collect-systime=nsec", separateThreads ? "--separate-threads=yes" : "--separate-threads=no",
            "--dump-line=no", cacheSimulation ? "--cache-sim=yes" : "--cache-sim=no",
            instrumentFromStart ? "--dump-instr=yes" : "--dump-instr=no", instrumentFromStart ? "--compress-pos=no" : "--compress-pos=yes",
            $"--callgrind-out-file={Path.Combine(outputDirectory, "callgrind.out.%p")}",
        })
        {
            start.ArgumentList.Add(argument);
        }

        if (cacheSimulation)
        {
            // Valgrind sizes the simulated caches from the host's CPUID, so the same code would estimate differently on
            // a runner with other caches; fixed, the estimate is a count like the others.
            foreach (var cache in SimulatedCaches)
            {
                start.ArgumentList.Add(cache);
            }
        }

        foreach (var part in command)
        {
            start.ArgumentList.Add(part);
        }

        foreach (var (name, value) in DeterministicEnvironment.Concat(CountedIsa.Environment))
        {
            start.Environment[name] = value;
        }

        if (CountedRuntime.Current.Major is > 0 and < 10)
        {
            // The GC of .NET 8 and 9 reserves 256 GiB of address space for its regions as it starts, which a process
            // under Valgrind cannot get ("GC heap initialization failed with error 0x8007000E"); .NET 10 starts within
            // what it can. 4 GiB is far beyond any counted process's heap, and the .NET 10 counts stay as recorded.
            start.Environment["DOTNET_GCRegionRange"] = "0x100000000";
        }

        return start;
    }

    /// <summary>The dumps in a profile folder: <c>callgrind.out.PID.N</c>, or <c>callgrind.out.PID.N-TT</c> per thread.</summary>
    internal static IEnumerable<string> DumpFiles(string directory) =>
        Directory.EnumerateFiles(directory, "callgrind.out.*").Where(path => DumpName().IsMatch(Path.GetFileName(path)));

    [System.Text.RegularExpressions.GeneratedRegex(@"^callgrind\.out\.\d+\.\d+(-\d+)?$")]
    private static partial System.Text.RegularExpressions.Regex DumpName();

    internal static string Tail(string text)
    {
        var lines = text.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        return string.Join(" | ", lines.TakeLast(5)).Trim();
    }

    /// <summary>
    /// The system calls a budget counts: every one Callgrind saw, less clock reads and thread synchronization.
    /// </summary>
    /// <remarks>
    /// A clock read (<c>clock_gettime</c>) or <c>sched_getcpu</c> is a vDSO call that never enters the kernel natively;
    /// only under Valgrind, which has no vDSO, does it become a system call, and spin-waits read the clock a number of
    /// times that depends on timing. Futex waits and wakes (mutexes, condition variables, <c>sched_yield</c>) happen only when threads
    /// meet, which is timing too: measured on the server, they moved by hundreds per round while the I/O calls (one
    /// <c>epoll_wait</c>, two <c>recv</c> and one <c>send</c> per request) did not move at all. What stays is the I/O
    /// and every other call, sleeps included: one more of those per operation is a change in the code.
    /// </remarks>
    public static bool IsTimingDependentSystemCall(string function)
    {
        ArgumentNullException.ThrowIfNull(function);
        var name = function.Split('@')[0];
        return name is "clock_gettime" or "gettimeofday" or "time" or "clock_getres" or "sched_getcpu" or "getcpu" or "sched_yield"
            || name.Contains("futex", StringComparison.Ordinal)
            || name.Contains("lll_lock", StringComparison.Ordinal)
            || name.StartsWith("pthread_", StringComparison.Ordinal)
            || name.StartsWith("sem_", StringComparison.Ordinal);
    }

    // The caches the estimate simulates, whatever the host has: 32 KiB 8-way L1 instruction and data caches and an 8 MiB
    // 16-way last level, 64-byte lines (the CPU Valgrind 3.19 shows the program, an Intel Haswell).
    internal static readonly string[] SimulatedCaches = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"];
}
