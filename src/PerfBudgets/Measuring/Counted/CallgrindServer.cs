using System.Diagnostics;
using System.Globalization;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// Counts what a server in its own process spends per request: the server runs under Callgrind with instrumentation
/// off, and each counted round is steered from outside through Valgrind's gdbserver (<c>vgdb</c>, the channel
/// <c>callgrind_control</c> uses): instrumentation on, counters zeroed, N requests driven by the caller, a named dump,
/// instrumentation off. The server's code is not touched.
/// </summary>
/// <remarks>
/// <para>
/// Every thread of the server is counted during a round (its socket engine, its pool threads), so a round measures
/// all the work a request causes. Background work that lands in one round (a timer, a collection) only adds, so
/// <see cref="InstructionMeasurement.InstructionsPerOperation"/> takes the round with the fewest.
/// </para>
/// <para>
/// Requests go one at a time, and the next is sent only once the server has gone quiet (no thread running or waiting
/// for a core, and its CPU clock still for a millisecond). Without that pause, the path a request takes depends on a
/// race: whether it arrives while the server is still finishing the previous one (its next read completes at once) or
/// after (the read waits, and the socket engine wakes a pool thread). Under Valgrind's slowdown that race went both
/// ways, and the echo service's count per frame moved by half between runs. With the pause every request takes the idle
/// server's path, as on a server between requests.
/// </para>
/// </remarks>
public sealed class CallgrindServer : IDisposable
{
    private readonly Valgrind _valgrind;
    private readonly DirectoryInfo _output;
    private readonly HashSet<string> _read = new(StringComparer.Ordinal);
    private readonly bool _countStartup;

    // What this server's session has counted so far, and every file the server had mapped at each count: what a stored
    // session (MeasureSessionAsync) keeps.
    private readonly List<string> _measured = [];
    private readonly HashSet<string> _mapped = new(StringComparer.Ordinal);
    private string? _mappedUnreadable;
    private int? _processId;

    /// <summary>
    /// Settings for a counted ASP.NET Core server's environment, to add to <see cref="StartInfo"/>'s: one thread-pool
    /// thread and one socket-engine thread, and no watcher on the configuration files. With two or more threads, which
    /// idle thread the runtime wakes for a request, and whether it wakes a second that finds nothing to do, is a race,
    /// and a server's count per request moved by 1-3.5% between runs; with one of each it repeats within about 0.2%.
    /// The code a request runs is the same, only the hand-offs between threads are fewer. The configuration watcher
    /// polls on a timer of its own, and a poll that lands in a round is counted as the round's work. Socket completions
    /// run inline on the socket-engine thread rather than being queued to the pool, one hand-off fewer per request.
    /// </summary>
    public static IReadOnlyDictionary<string, string> SteadyServerEnvironment { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["DOTNET_ThreadPool_ForceMinWorkerThreads"] = "1",
        ["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = "1",
        ["DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT"] = "1",
        ["DOTNET_hostBuilder__reloadConfigOnChange"] = "false",
        ["DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS"] = "1",
    };

    /// <summary>Prepares a folder for the server's profiles.</summary>
    /// <exception cref="InstructionMeterException">Valgrind is unavailable here.</exception>
    public CallgrindServer()
        : this(countStartup: false)
    {
    }

    /// <summary>
    /// Prepares a folder for the server's profiles; with <paramref name="countStartup"/>, the server is counted from
    /// its first instruction (the dotnet host, the runtime's start, every compilation, the app's <c>Main</c>) until
    /// <see cref="MeasureStartup"/>, with the app's own tiering and the overrides <see cref="StartupOverrides"/> lists. Instrumented from the start, a server takes
    /// about three times as long to start under Callgrind (an ASP.NET Core app: about 30 s against 10 s on 2 cores).
    /// </summary>
    /// <exception cref="InstructionMeterException">Valgrind is unavailable here.</exception>
    public CallgrindServer(bool countStartup)
    {
        _countStartup = countStartup;
        _valgrind = Valgrind.Current;
        if (!_valgrind.IsAvailable)
        {
            throw new InstructionMeterException($"not measured ({_valgrind.UnavailableReason})");
        }

        _output = Directory.CreateTempSubdirectory("perfbudgets-callgrind-server-");
    }

    /// <summary>The folder the server's profiles are dumped to (<c>callgrind.out.PID.N</c>), removed on <see cref="Dispose"/>.</summary>
    internal string OutputDirectory => _output.FullName;

    /// <summary>
    /// The start of <paramref name="fileName"/> with <paramref name="arguments"/> under Callgrind (instrumentation off
    /// until a round starts, <see cref="InstructionMeter.DeterministicEnvironment"/> set). Start it, wait for it to
    /// listen, and pass its process id to <see cref="Measure"/>.
    /// </summary>
    public ProcessStartInfo StartInfo(string fileName, IEnumerable<string> arguments)
    {
        ArgumentException.ThrowIfNullOrEmpty(fileName);
        ArgumentNullException.ThrowIfNull(arguments);
        var start = InstructionMeter.StartInfo(_valgrind, _output.FullName, [fileName, .. arguments], cacheSimulation: false, separateThreads: false,
            countFromStart: true, instrumentFromStart: _countStartup);
        if (_countStartup)
        {
            var (environment, overridden) = CountedStartSettings.For(arguments.FirstOrDefault(a => a.EndsWith(".dll", StringComparison.OrdinalIgnoreCase)));
            foreach (var (name, value) in environment)
            {
                start.Environment[name] = value;
            }

            StartupOverrides = overridden;
        }

        return start;
    }

    /// <summary>
    /// The runtime settings a counted start (<c>countStartup</c>) overrides in the app's own, one line each with what
    /// the app ships and why the count needs another value (<c>CountedStartSettings</c>); empty until <see cref="StartInfo"/>.
    /// Tiered compilation is the app's own: its start is counted as it ships, tiered or not. Compiled fully optimized
    /// instead (the meter's default), the same start counted 2.5 billion instructions rather than 1.8.
    /// </summary>
    public IReadOnlyList<string> StartupOverrides { get; private set; } = [];

    /// <summary>
    /// Counts the server's start, from its first instruction to now, as one operation: call it once the server has
    /// answered its first request (sent by the caller, who decides what "started" means: the first 2xx on a readiness
    /// path). Waits for the server to go quiet, dumps the count, and turns instrumentation off, so the rounds of
    /// <see cref="Measure"/> follow as on a server started uncounted. The methods that grew are named as for any count.
    /// </summary>
    /// <param name="processId">The server's process id.</param>
    /// <param name="workload">The name the start is dumped under.</param>
    /// <exception cref="InvalidOperationException">This server was not prepared with <c>countStartup</c>.</exception>
    public InstructionMeasurement MeasureStartup(int processId, string workload)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(workload);
        if (!_countStartup)
        {
            throw new InvalidOperationException("The server was started uncounted: prepare it with new CallgrindServer(countStartup: true).");
        }

        _processId = processId;
        WaitUntilQuiet(processId, CpuClock.ForProcess(processId));
        Command(processId, string.Create(CultureInfo.InvariantCulture, $"dump {InstructionRegion.DumpPrefix}:{workload}:1:0"));
        Command(processId, "instrumentation off");
        return Read(processId, workload);
    }

    /// <summary>
    /// A whole counted session of a server, or the stored one whose inputs were byte-identical: <paramref name="session"/>
    /// starts the server from <paramref name="start"/>, drives it, and counts it with <see cref="Measure"/> and
    /// <see cref="MeasureStartup"/> on this instance, answering the measurements by workload. A session is a function of
    /// its inputs as a workload host's run is, so it is keyed as one (<see cref="InstructionMeter.RunProcess"/>): the
    /// start, every file of <paramref name="serverDirectory"/>, every file the server mapped, every file of the folder of
    /// the code that drives it (this process's), and <paramref name="steering"/>. A reused session is not run at all,
    /// and its measurements say where they come from; a counted one says why it was not reused.
    /// </summary>
    /// <param name="start">The server's start as the session launches it: <see cref="StartInfo"/>'s, with the variables and arguments the session adds.</param>
    /// <param name="serverDirectory">The folder of the server's program (its assembly): every file in it is an input.</param>
    /// <param name="steering">
    /// What decides the session's requests that is read from outside this process's folder, one line each (counts of
    /// warm-up requests and rounds from the budget file, a body from a data file): part of the key. The session's own
    /// code is in the key through its assembly.
    /// </param>
    /// <param name="session">The session, counted when no stored one matches.</param>
    public async Task<IReadOnlyDictionary<string, InstructionMeasurement>> MeasureSessionAsync(ProcessStartInfo start, string serverDirectory,
        IEnumerable<string> steering, Func<Task<IReadOnlyDictionary<string, InstructionMeasurement>>> session)
    {
        ArgumentNullException.ThrowIfNull(start);
        ArgumentException.ThrowIfNullOrEmpty(serverDirectory);
        ArgumentNullException.ThrowIfNull(steering);
        ArgumentNullException.ThrowIfNull(session);
        var valgrindVersion = _valgrind.Version!;
        var store = CountStore.Open();
        var key = store is null ? null : CountKey.TryOf(start, valgrindVersion, serverDirectory, OutputDirectory,
            ["server session" + (_countStartup ? ", counted from its start" : string.Empty), .. steering], AppContext.BaseDirectory);
        string? notReusedBecause = null;
        if (key is not null && store!.TryLoad(key, out notReusedBecause) is { } stored)
        {
            return stored.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries)
                .Where(line => line.StartsWith(MeasuredLine, StringComparison.Ordinal))
                .Select(line => line[MeasuredLine.Length..])
                .ToDictionary(workload => workload, workload => CallgrindMeasurement.From(workload, stored.Parts, stored.Map, InstructionMeter.RuntimeVersion, valgrindVersion) with { Reused = stored.Reused },
                    StringComparer.Ordinal);
        }

        var counted = await session().ConfigureAwait(false);
        var notStoredBecause = CountStore.SaveIfKeyed(store, key, (keptIn, keyed) =>
        {
            if (_processId is not { } pid || _measured.Count == 0)
            {
                return "the session counted nothing on this server";
            }

            if (_mappedUnreadable is not null)
            {
                return $"the server's mapped files could not be read ({_mappedUnreadable})";
            }

            if (counted.Keys.FirstOrDefault(k => !_measured.Contains(k)) is { } other)
            {
                return $"the session answered {other}, which it did not count on this server";
            }

            var list = Path.Combine(OutputDirectory, "mapped-files");
            File.WriteAllLines(list, _mapped);
            return keptIn.Save(keyed, serverDirectory, list, string.Concat(_measured.Select(m => MeasuredLine + m + "\n")),
                InstructionMeter.DumpFiles(OutputDirectory), PerfMap.PathFor(pid));
        });
        return counted.ToDictionary(c => c.Key, c => c.Value with { NotReusedBecause = notReusedBecause, NotStoredBecause = notStoredBecause }, StringComparer.Ordinal);
    }

    // A stored session's standard output: one line per workload it counted.
    private const string MeasuredLine = "measured ";

    /// <summary>
    /// Counts <paramref name="rounds"/> rounds of <paramref name="operations"/> operations that
    /// <paramref name="sendOne"/> drives against the server <paramref name="processId"/>.
    /// </summary>
    /// <param name="processId">The server's process id (Valgrind runs the program in the process it was started as).</param>
    /// <param name="workload">The name the rounds are dumped under.</param>
    /// <param name="sendOne">Sends one request (or frame) and returns when it is answered.</param>
    /// <param name="operations">Operations per round.</param>
    /// <param name="rounds">Counted rounds.</param>
    public InstructionMeasurement Measure(int processId, string workload, Action sendOne, int operations, int rounds = 3)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(workload);
        ArgumentNullException.ThrowIfNull(sendOne);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(operations);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rounds);
        _processId = processId;
        var clock = CpuClock.ForProcess(processId);
        for (var round = 0; round < rounds; round++)
        {
            Command(processId, "instrumentation on");
            Command(processId, "zero");
            for (var i = 0; i < operations; i++)
            {
                WaitUntilQuiet(processId, clock);
                sendOne();
            }

            WaitUntilQuiet(processId, clock);
            Command(processId, string.Create(CultureInfo.InvariantCulture, $"dump {InstructionRegion.DumpPrefix}:{workload}:{operations}:{round}"));
            Command(processId, "instrumentation off");
        }

        return Read(processId, workload);
    }

    // The dumps not read yet, with the perf map that names the JIT-compiled methods in them. The files the server has
    // mapped by now are noted for a stored session.
    private InstructionMeasurement Read(int processId, string workload)
    {
        _measured.Add(workload);
        try
        {
            _mapped.UnionWith(CountKey.MappedFiles(string.Create(CultureInfo.InvariantCulture, $"/proc/{processId}/maps")));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Not Linux, or the server is gone: without the list of what it mapped, the session is not stored.
            _mappedUnreadable ??= e.Message;
        }

        var parts = InstructionMeter.DumpFiles(_output.FullName)
            .Where(path => _read.Add(path))
            .Select(CallgrindProfile.Read)
            .ToList();
        var mapPath = PerfMap.PathFor(processId);
        var map = File.Exists(mapPath) ? PerfMap.Read(mapPath) : PerfMap.Empty;
        return CallgrindMeasurement.From(workload, parts, map, InstructionMeter.RuntimeVersion, _valgrind.Version!);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _output.Delete(recursive: true);
        if (_processId is { } pid && File.Exists(PerfMap.PathFor(pid)))
        {
            File.Delete(PerfMap.PathFor(pid));
        }
    }

    /// <summary>
    /// Drives <paramref name="sendOne"/> <paramref name="operations"/> times, each once the server has gone quiet, with
    /// nothing counted (warm-up: lazy initialisation and the JIT's first compilations).
    /// </summary>
    public static void WarmUp(int processId, Action sendOne, int operations)
    {
        ArgumentNullException.ThrowIfNull(sendOne);
        var clock = CpuClock.ForProcess(processId);
        for (var i = 0; i < operations; i++)
        {
            WaitUntilQuiet(processId, clock);
            sendOne();
        }
    }

    // Quiet: none of the server's threads is running or waiting for a core, and its CPU clock advanced less than 50 µs
    // over a millisecond, twice in a row. The clock alone was not enough on a busy machine: a thread that still had
    // the end of a request to run (going back to its wait) but was waiting for a core advanced no clock, the round was
    // dumped without that end, and the smallest round read 0.8% low beside two busy loops.
    private static void WaitUntilQuiet(int processId, Func<long> clock)
    {
        var quiet = 0;
        var deadline = Stopwatch.GetTimestamp() + (Stopwatch.Frequency * 10);
        while (quiet < 2 && Stopwatch.GetTimestamp() < deadline)
        {
            var before = clock();
            Thread.Sleep(1);
            quiet = clock() - before < 50_000 && !AnyThreadRunnable(processId) ? quiet + 1 : 0;
        }
    }

    // True when a thread of the process is running or runnable: state R in /proc/PID/task/TID/stat (the field after
    // the parenthesized name). Linux only; elsewhere the CPU clock decides alone.
    private static bool AnyThreadRunnable(int processId)
    {
        var tasks = $"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/task";
        if (!OperatingSystem.IsLinux() || !Directory.Exists(tasks))
        {
            return false;
        }

        foreach (var task in Directory.EnumerateDirectories(tasks))
        {
            string stat;
            try
            {
                stat = File.ReadAllText(Path.Combine(task, "stat"));
            }
            catch (IOException)
            {
                continue; // the thread ended meanwhile
            }

            var close = stat.LastIndexOf(')');
            if (close >= 0 && close + 2 < stat.Length && stat[close + 2] == 'R')
            {
                return true;
            }
        }

        return false;
    }

    // One Callgrind monitor command through vgdb; vgdb wakes the process through ptrace if all its threads are blocked
    // in system calls (an idle server), so the command never waits for the next request. (Two commands in one vgdb,
    // "instrumentation on -c zero", were tried: the thread the wake interrupted then finished its system call after
    // the zero, and the echo service's smallest round read 3% high.)
    private void Command(int processId, string command)
    {
        var vgdb = Path.Combine(Path.GetDirectoryName(_valgrind.Path!)!, "vgdb");
        var start = new ProcessStartInfo(vgdb)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(string.Create(CultureInfo.InvariantCulture, $"--pid={processId}"));

        // vgdb waits this long for the process to poll for it before it wakes it through ptrace (default 100 ms). The
        // server is quiet whenever a command is sent, so it never polls by itself: waiting only made each command
        // take 0.21 s instead of 0.11 s, and a run sends about 150 of them.
        start.ArgumentList.Add("--max-invoke-ms=5");
        foreach (var word in command.Split(' '))
        {
            start.ArgumentList.Add(word);
        }

        var run = ChildProcess.Run(start, "vgdb", TimeSpan.FromSeconds(60));
        if (run.TimedOut)
        {
            throw new InstructionMeterException($"vgdb '{command}' to process {processId} did not answer within 60 s.");
        }

        if (run.ExitCode != 0)
        {
            throw new InstructionMeterException($"vgdb '{command}' to process {processId} failed ({run.ExitCode}): {InstructionMeter.Tail(run.Combined)}");
        }
    }
}
