using System.Text.Json;
using PerfBudgets;
using PerfBudgets.Load;
using PerfBudgets.Measuring;
using SystemUnderTest.Json;
using SystemUnderTest.Sockets.Echo;

namespace PerfGate.Tests.Cpu.Counted;

/// <summary>
/// The two Callgrind runs behind the counted budgets, started in the background as the suite starts and run side by
/// side (each is one Valgrind process, and Valgrind runs one thread at a time, so together they take the two cores):
/// the workload host with every in-process workload, and the system under test as a server driven request by request.
/// Counts do not depend on what else the machine does, so the two may share it; the suite's timed budgets wait for
/// both to finish (<see cref="WhenIdleAsync"/>) and measure on a quiet machine. It is the suite's assembly fixture and
/// holds <see cref="OneSuiteAtATime"/> first, so no other suite measures beside the two runs.
/// </summary>
public sealed class CountedRuns : IAsyncLifetime
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);
    private readonly OneSuiteAtATime _oneSuiteAtATime = new();

    private Task<CallgrindRun>? _inProcess;
    private Task<IReadOnlyDictionary<string, InstructionMeasurement>>? _server;

    /// <summary>Why nothing can be counted on this machine (no Valgrind, not Linux x86-64), or null when it can.</summary>
    public string? UnavailableReason { get; } = Valgrind.Current.UnavailableReason;

    /// <summary>The in-process workloads' run: every workload of the host, counted in one Callgrind process.</summary>
    public Task<CallgrindRun> InProcess => _inProcess ?? throw new InvalidOperationException(UnavailableReason);

    /// <summary>The server's counts by workload (<c>Api.DelayAsync</c>, <c>Json.Endpoint.Employees9</c>, …).</summary>
    public Task<IReadOnlyDictionary<string, InstructionMeasurement>> Server => _server ?? throw new InvalidOperationException(UnavailableReason);

    /// <inheritdoc />
    public ValueTask InitializeAsync()
    {
        if (UnavailableReason is null)
        {
            var host = Path.Combine(AppContext.BaseDirectory, "Cpu.Workloads.dll");
            _inProcess = Task.Run(() => InstructionMeter.RunProcess(host, [], Timeout, cacheSimulation: true));
            _server = Task.Run(CountServerAsync);
        }

        return ValueTask.CompletedTask;
    }

    /// <summary>Waits until neither Callgrind run is still going (whatever their outcome).</summary>
    public async Task WhenIdleAsync()
    {
        foreach (var run in new Task?[] { _inProcess, _server })
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
        _oneSuiteAtATime.Dispose();
    }

    // The server under Callgrind, uninstrumented until a round starts. Each workload is driven from one keep-alive
    // connection, one request at a time on a quiet server (CallgrindServer), so a round counts the server's work per
    // request and nothing of the client's.
    private static async Task<IReadOnlyDictionary<string, InstructionMeasurement>> CountServerAsync()
    {
        var book = SuiteGate.Current.Book;
        var warmUp = book.IntParameter("Cpu.Counted.Server.WarmUpRequests");
        var requests = book.IntParameter("Cpu.Counted.Server.Requests");
        var rounds = book.IntParameter("Cpu.Counted.Server.Rounds");
        using var callgrind = new CallgrindServer();
        // One pool thread and one socket engine thread: with two or more, which idle thread the runtime wakes for a
        // request, and whether it wakes a second one that finds nothing to do, is a race, and the counts of the HTTP
        // endpoints moved by 1-3.5% between runs. With one of each they repeat within 0.2%. The code a request runs is
        // the same; only the hand-offs between threads are fewer.
        using var app = await AppProcess.StartAsync(TimeSpan.FromMinutes(3), CancellationToken.None, withEchoService: true, underCallgrind: callgrind, environment: new Dictionary<string, string>
        {
            ["DOTNET_ThreadPool_ForceMinWorkerThreads"] = "1",
            ["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = "1",
            ["DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT"] = "1",
        });
        var body = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        using var delay = new HttpKeepAliveProbe(app.EndPoint, "/api/delay/async?ms=0");
        using var employees = new HttpKeepAliveProbe(app.EndPoint, "/api/employees?count=9");
        using var echo9 = new HttpKeepAliveProbe(app.EndPoint, "POST", "/api/employees/echo", "application/json", body);
        // The JSON endpoints cost 2-5x the delay endpoint per request, so their rounds hold fewer requests: every round
        // counts tens of millions of instructions, and the server run stays within the in-process one's time.
        var jsonRequests = book.IntParameter("Cpu.Counted.Server.JsonRequests");
        var workloads = new (string Name, Action Send, int Requests)[]
        {
            ("Api.DelayAsync", () => Expect(delay.Send(), 200), requests),
            ("Json.Endpoint.Employees9", () => Expect(employees.Send(), 200), jsonRequests),
            ("Json.Endpoint.Echo9", () => Expect(echo9.Send(), 200), jsonRequests),
        };

        // Each workload warms up right before it is counted, so no connection sits idle long enough for the server to close it.
        var counts = new Dictionary<string, InstructionMeasurement>(StringComparer.Ordinal);
        foreach (var (name, send, count) in workloads)
        {
            CallgrindServer.WarmUp(app.ProcessId, send, warmUp);
            counts[name] = callgrind.Measure(app.ProcessId, name, send, count, rounds);
        }

        using (var frames = EchoClient.Connect(app.EchoEndPoint!, 1_000, TimeSpan.FromSeconds(60)))
        {
            CallgrindServer.WarmUp(app.ProcessId, frames.Echo, warmUp);
            counts["Sockets.Echo"] = callgrind.Measure(app.ProcessId, "Sockets.Echo", frames.Echo, requests, rounds);
        }

        var expected = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        if (!employees.LastBody.SequenceEqual(expected) || !echo9.LastBody.SequenceEqual(body))
        {
            throw new InvalidOperationException("The server answered the counted requests with a wrong body.");
        }

        return counts;
    }

    private static void Expect(int status, int expected)
    {
        if (status != expected)
        {
            throw new InvalidOperationException($"The server answered {status}, not {expected}.");
        }
    }
}
