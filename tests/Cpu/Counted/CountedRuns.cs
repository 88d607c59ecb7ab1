using System.Collections.Concurrent;
using System.Text.Json;
using PerfBudgets;
using PerfBudgets.Load;
using PerfBudgets.Measuring;
using SystemUnderTest.Json;
using SystemUnderTest.Sockets.Echo;

namespace Cpu.Counted;

/// <summary>
/// The two Callgrind runs behind the counted budgets, started in the background as the suite starts and run side by
/// side (each is one Valgrind process, and Valgrind runs one thread at a time, so together they take the two cores):
/// the workload host with every in-process workload, and the system under test as a server driven request by request.
/// Counts do not depend on what else the machine does, so the two may share it. It is the suite's assembly fixture and
/// holds the machine-wide <see cref="MeasurementLock"/> first, so no other suite measures beside the two runs.
/// </summary>
public sealed class CountedRuns : IAsyncLifetime
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    // How long one request to the server under Callgrind may take: its first requests compile the request pipeline
    // fifty times slower than natively, and on a busy machine slower still (10 s was exceeded beside a parallel build).
    private static readonly TimeSpan ServerProbeTimeout = TimeSpan.FromMinutes(2);

    // How long the counted start's first answer may take: the whole start, every method compiled under Callgrind
    // (30-40 s alone on 2 cores, docs/package/startup.md), beside the two other Callgrind runs; beside a build as well
    // it overran 2 minutes. The bound is against a hang, as the suite's other counted runs have.
    private static readonly TimeSpan StartupProbeTimeout = Timeout;
    private readonly MeasurementLock _measurementLock = new();

    private readonly ConcurrentDictionary<string, Lazy<Task<InstructionMeasurement>>> _confirmations = new(StringComparer.Ordinal);
    private Task<CallgrindRun>? _inProcess;
    private Task<IReadOnlyDictionary<string, InstructionMeasurement>>? _server;
    private Task<(InstructionMeasurement Measurement, string Check)>? _fileCopy;
    private Task<InstructionMeasurement>? _startup;

    /// <summary>Why nothing can be counted on this machine (no Valgrind, not Linux x86-64), or null when it can.</summary>
    public string? UnavailableReason { get; } = InstructionMeter.UnavailableReason;

    /// <summary>The in-process workloads' run: every workload of the host, counted in one Callgrind process.</summary>
    public Task<CallgrindRun> InProcess => _inProcess ?? throw new InvalidOperationException(UnavailableReason);

    /// <summary>The server's counts by workload (<c>Api.DelayAsync</c>, <c>Json.Endpoint.Employees9</c>, …).</summary>
    public Task<IReadOnlyDictionary<string, InstructionMeasurement>> Server => _server ?? throw new InvalidOperationException(UnavailableReason);

    /// <summary>How the counted server's settings differ from what ships, and why (<see cref="AppProcess.SettingsNote"/>), once it has started.</summary>
    public static string? ServerSettingsNote { get; private set; }

    /// <summary>
    /// The app's start counted from its first instruction to its first answer, on a server of its own started beside
    /// the two other runs.
    /// </summary>
    public Task<InstructionMeasurement> Startup => _startup ?? throw new InvalidOperationException(UnavailableReason);

    /// <summary>
    /// The file copy counted on every thread of the host (its reads and writes run on pool threads), once both other
    /// runs are done: the host's count and its check of the work.
    /// </summary>
    public Task<(InstructionMeasurement Measurement, string Check)> FileCopy => _fileCopy ?? throw new InvalidOperationException(UnavailableReason);

    /// <inheritdoc />
    public ValueTask InitializeAsync()
    {
        if (UnavailableReason is null)
        {
            var host = Path.Combine(AppContext.BaseDirectory, "Cpu.Workloads.dll");
            _inProcess = Task.Run(() => InstructionMeter.RunProcess(host, [], Timeout, cacheSimulation: true));
            _server = Task.Run(() => CountServerAsync(only: null));
            // Beside both: three Valgrind processes on two cores take less time in all than the start after either.
            _startup = Task.Run(CountStartupAsync);
            // After the other runs, not beside them: the server must answer each warm-up request (JIT-heavy, under
            // Valgrind) in time, and on a loaded machine a fourth Valgrind process beside it is a risk the ~12 s this
            // run takes does not justify.
            _fileCopy = Task.WhenAll(_inProcess, _server, _startup).ContinueWith(_ => CountFileCopy(host), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
        }

        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// Counts one in-process workload again, in a workload host of its own (the confirmation of a count over its limit:
    /// <see cref="BudgetGate.CheckCountConfirmedAsync"/>). Run once per workload, whichever of its budgets asks first.
    /// </summary>
    public Task<InstructionMeasurement> ConfirmInProcessAsync(string workload) =>
        _confirmations.GetOrAdd($"in-process:{workload}", _ => new Lazy<Task<InstructionMeasurement>>(() => Task.Run(() =>
        {
            var host = Path.Combine(AppContext.BaseDirectory, "Cpu.Workloads.dll");
            // With the cache simulation, as the first count: a workload's cycles-max budget is confirmed by this run too.
            var run = InstructionMeter.RunProcess(host, [workload], Timeout, cacheSimulation: true);
            return run.StandardOutput.Contains($"workload {workload} check ok", StringComparison.Ordinal)
                ? run.Measurement(workload)
                : throw new InvalidOperationException($"The confirming run of {workload} did not do its work: {run.StandardOutput}");
        }))).Value;

    /// <summary>Counts one server workload again, on a server process of its own started for it (see <see cref="ConfirmInProcessAsync"/>).</summary>
    public Task<InstructionMeasurement> ConfirmServerAsync(string workload) =>
        _confirmations.GetOrAdd($"server:{workload}", _ => new Lazy<Task<InstructionMeasurement>>(() => Task.Run(async () =>
            (await CountServerAsync(only: workload))[workload]))).Value;

    // Waits until no Callgrind run is still going (whatever their outcome).
    private async Task WhenIdleAsync()
    {
        foreach (var run in new Task?[] { _inProcess, _server, _startup, _fileCopy })
        {
            if (run is not null)
            {
                await ((Task)run).ContinueWith(_ => { }, TaskScheduler.Default);
            }
        }
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await WhenIdleAsync();
        _measurementLock.Dispose();
    }

    // The server under Callgrind, uninstrumented until a round starts. Each workload is driven from one keep-alive
    // connection, one request at a time on a quiet server (CallgrindServer), so a round counts the server's work per
    // request and nothing of the client's. With 'only', that one workload alone (a confirmation). A session whose inputs
    // (the app's folder, which is this suite's, every file the server mapped, the parameters below) a stored one had is
    // reused, not run.
    private static async Task<IReadOnlyDictionary<string, InstructionMeasurement>> CountServerAsync(string? only)
    {
        var book = SuiteGate.Current.Book;
        using var callgrind = new CallgrindServer();
        // The package's settings for a counted server (one pool thread, one socket-engine thread, no configuration
        // watcher, inline socket completions: CallgrindServer.SteadyServerEnvironment says why).
        var (start, settingsNote) = AppProcess.PlannedStart(withEchoService: true, CallgrindServer.SteadyServerEnvironment, callgrind);
        ServerSettingsNote = settingsNote;
        string[] parameters = ["WarmUpRequests", "Requests", "Rounds", "JsonRequests", "EchoFrames", "EchoRounds",
            "Growth.WarmUpRequests", "Growth.Requests", "Growth.Rounds", "Growth.EchoFrames", "Growth.EchoRounds"];
        var steering = parameters.Select(p => $"Cpu.Counted.Server.{p}={book.IntParameter("Cpu.Counted.Server." + p)}").Append($"only {only ?? "every workload"}");
        return await callgrind.MeasureSessionAsync(start, AppProcess.AppDirectory, steering, () => CountServerSessionAsync(book, callgrind, only));
    }

    private static async Task<IReadOnlyDictionary<string, InstructionMeasurement>> CountServerSessionAsync(PerfBudgets.Budgets.BudgetBook book, CallgrindServer callgrind, string? only)
    {
        var warmUp = book.IntParameter("Cpu.Counted.Server.WarmUpRequests");
        var requests = book.IntParameter("Cpu.Counted.Server.Requests");
        var rounds = book.IntParameter("Cpu.Counted.Server.Rounds");
        using var app = await AppProcess.StartAsync(TimeSpan.FromMinutes(3), CancellationToken.None, withEchoService: true, underCallgrind: callgrind,
            environment: CallgrindServer.SteadyServerEnvironment);
        // The 9-employee list as JSON: what GET /api/employees?count=9 answers, and the body POST /api/employees/echo
        // sends and gets back.
        var list9 = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);

        // The JSON endpoints cost 2-5x the delay endpoint per request, so their rounds hold fewer requests: every round
        // counts millions of instructions, and the server run stays within the in-process one's time.
        var jsonRequests = book.IntParameter("Cpu.Counted.Server.JsonRequests");
        var workloads = new (string Name, Func<HttpKeepAliveProbe> Open, byte[]? Expected, int Requests)[]
        {
            ("Api.DelayAsync", () => new HttpKeepAliveProbe(app.EndPoint, "/api/delay/async?ms=0"), null, requests),
            ("Json.Endpoint.Employees9", () => new HttpKeepAliveProbe(app.EndPoint, "/api/employees?count=9"), list9, jsonRequests),
            ("Json.Endpoint.Echo9", () => new HttpKeepAliveProbe(app.EndPoint, "POST", "/api/employees/echo", "application/json", list9), list9, jsonRequests),
        };

        // A frame costs about a sixteenth of a request, so the runtime's timed background work (the thread pool's
        // periodic checks, an allocation context refilled by a timer callback) weighs that much more in a round of
        // frames, and which round it lands in is timing. Many short rounds leave some with none of it, and the
        // smallest is gated: over three rounds of 200 the count per frame moved by 2.3% between runs.
        var counts = new Dictionary<string, InstructionMeasurement>(StringComparer.Ordinal);
        var echoFrames = book.IntParameter("Cpu.Counted.Server.EchoFrames");
        var echoRounds = book.IntParameter("Cpu.Counted.Server.EchoRounds");
        // The echo service goes first, on a server that has served nothing else: counted after the HTTP workloads, it
        // came out 1.6-2.6% higher in three of five runs beside two busy loops (a call site of the runtime's shared
        // code had become polymorphic and its resolve cache missed), and never on a quiet machine.
        if (only is null or "Sockets.Echo")
        {
            using var frames = EchoClient.Connect(app.EchoEndPoint!, 1_000, TimeSpan.FromSeconds(60));
            CallgrindServer.WarmUp(app.ProcessId, frames.Echo, warmUp);
            counts["Sockets.Echo"] = callgrind.Measure(app.ProcessId, "Sockets.Echo", frames.Echo, echoFrames, echoRounds);
        }

        // Each workload has its own connection, opened right before its warm-up and closed once it is counted, so none
        // sits idle while the others are counted (on a slow run the server would close it on its keep-alive timeout,
        // in the middle of a later workload).
        foreach (var (name, open, answer, count) in workloads.Where(w => only is null || w.Name == only))
        {
            using var probe = open();
            probe.Timeout = ServerProbeTimeout;
            void Send() => Expect(probe.Send(), 200);
            CallgrindServer.WarmUp(app.ProcessId, Send, warmUp);
            counts[name] = callgrind.Measure(app.ProcessId, name, Send, count, rounds);
            if (answer is not null && !probe.LastBody.SequenceEqual(answer))
            {
                throw new InvalidOperationException($"The server answered the counted requests of {name} with a wrong body.");
            }
        }

        CountGrowthWorkloads(book, callgrind, app, counts, only);
        return counts;
    }

    /// <summary>Counts the app's start again, on a server of its own (see <see cref="ConfirmInProcessAsync"/>).</summary>
    public Task<InstructionMeasurement> ConfirmStartupAsync() =>
        _confirmations.GetOrAdd("startup", _ => new Lazy<Task<InstructionMeasurement>>(() => Task.Run(CountStartupAsync))).Value;

    // The app under Callgrind from its first instruction (the dotnet host, the runtime's start, every method compiled,
    // Program.cs, the host's start) to its first answer: GET /api/employees?count=9 on a fresh connection, the request
    // the timed startup budget waits for, whose compilation of the request pipeline is part of every deployment's
    // first answer. With the counted server's settings (SteadyServerEnvironment, no echo service).
    // Reused as the server's session is, when a stored start had the same inputs.
    private static async Task<InstructionMeasurement> CountStartupAsync()
    {
        const string workload = "Startup.FirstResponse";
        using var callgrind = new CallgrindServer(countStartup: true);
        var (start, settingsNote) = AppProcess.PlannedStart(withEchoService: false, CallgrindServer.SteadyServerEnvironment, callgrind);
        StartupSettingsNote = $"{settingsNote}; runtime as the app's runtimeconfig.json but {string.Join("; ", callgrind.StartupOverrides)}";
        var counts = await callgrind.MeasureSessionAsync(start, AppProcess.AppDirectory, ["first answer to GET /api/employees?count=9"], async () =>
        {
            using var app = await AppProcess.StartAsync(TimeSpan.FromMinutes(5), CancellationToken.None, underCallgrind: callgrind,
                environment: CallgrindServer.SteadyServerEnvironment);
            using var probe = new HttpKeepAliveProbe(app.EndPoint, "/api/employees?count=9") { Timeout = StartupProbeTimeout };
            Expect(probe.Send(), 200);
            return new Dictionary<string, InstructionMeasurement> { [workload] = callgrind.MeasureStartup(app.ProcessId, workload) };
        });
        return counts[workload];
    }

    /// <summary>How the counted start's settings differ from what ships, and why, once it has started.</summary>
    public static string? StartupSettingsNote { get; private set; }

    // The host serves the copy; every copy is counted on all threads, each started once the host has gone quiet. With
    // one pool thread, as the servers are counted, the reads' and writes' continuations take one path: with the
    // runtime's default pool the count per copy moved over 74,749-96,905 in fourteen unchanged runs.
    private static (InstructionMeasurement Measurement, string Check) CountFileCopy(string host)
    {
        var book = SuiteGate.Current.Book;
        return CallgrindWorkloadHost.Measure(host, ["--serve", "IO.FileCopy"], "IO.FileCopy",
            book.IntParameter("Cpu.Counted.FileCopy.WarmUpCopies"), book.IntParameter("Cpu.Counted.FileCopy.Copies"),
            book.IntParameter("Cpu.Counted.FileCopy.Rounds"), Timeout, CallgrindServer.SteadyServerEnvironment);
    }

    // The large sizes of the growth budgets, counted last so the workloads above see the server as they always did:
    // the 1,000-employee list (the endpoint's largest, JsonPools:MaximumListCount; its 9-employee size is
    // Json.Endpoint.Employees9 above) and echo frames of 100 B and of the service's largest, 64 KiB
    // (EchoServerOptions.MaxFrameBytes). A 1,000-employee request costs about 100 times a 9-employee one, so it has a
    // short warm-up and few requests: its counts repeat as closely as the small ones', and the suite stays short.
    // With 'only', that one workload alone (a confirmation).
    private static void CountGrowthWorkloads(PerfBudgets.Budgets.BudgetBook book, CallgrindServer callgrind, AppProcess app, Dictionary<string, InstructionMeasurement> counts, string? only)
    {
        var list1000 = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(EmployeeData.MaxCount), EmployeeJson.Default.List.Write);
        if (only is null or "Json.Endpoint.Employees1000")
        {
            using var probe = new HttpKeepAliveProbe(app.EndPoint, $"/api/employees?count={EmployeeData.MaxCount}", bufferSize: list1000.Length + (16 * 1024));
            probe.Timeout = ServerProbeTimeout;
            void Send() => Expect(probe.Send(), 200);
            CallgrindServer.WarmUp(app.ProcessId, Send, book.IntParameter("Cpu.Counted.Server.Growth.WarmUpRequests"));
            counts["Json.Endpoint.Employees1000"] = callgrind.Measure(app.ProcessId, "Json.Endpoint.Employees1000", Send,
                book.IntParameter("Cpu.Counted.Server.Growth.Requests"), book.IntParameter("Cpu.Counted.Server.Growth.Rounds"));
            if (!probe.LastBody.SequenceEqual(list1000))
            {
                throw new InvalidOperationException("The server answered the counted requests of Json.Endpoint.Employees1000 with a wrong body.");
            }
        }

        var warmUp = book.IntParameter("Cpu.Counted.Server.WarmUpRequests");
        var frames = book.IntParameter("Cpu.Counted.Server.Growth.EchoFrames");
        var rounds = book.IntParameter("Cpu.Counted.Server.Growth.EchoRounds");
        foreach (var bytes in new[] { 100, new EchoServerOptions().MaxFrameBytes })
        {
            var name = bytes == 100 ? "Sockets.Echo.Frame100" : "Sockets.Echo.Frame64K";
            if (only is not null && only != name)
            {
                continue;
            }

            using var client = EchoClient.Connect(app.EchoEndPoint!, bytes, TimeSpan.FromSeconds(60));
            CallgrindServer.WarmUp(app.ProcessId, client.Echo, warmUp);
            counts[name] = callgrind.Measure(app.ProcessId, name, client.Echo, frames, rounds);
        }
    }

    private static void Expect(int status, int expected)
    {
        if (status != expected)
        {
            throw new InvalidOperationException($"The server answered {status}, not {expected}.");
        }
    }
}
