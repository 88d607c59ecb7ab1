using PerfBudgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Load;
using PerfBudgets.Measuring;

namespace PerfGate.Tests.Cpu;

/// <summary>
/// The system under test in a process of its own (HTTP and the echo service), shared by the server CPU budgets: a
/// server's CPU clock then counts the server's work only, never the client's.
/// </summary>
/// <remarks>
/// The server runs with the thread pool's idle spin turned off (<c>DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0</c>).
/// A worker that runs out of work otherwise spins for a while before it sleeps, and with one client request in flight
/// that spin lands after every request: its length depends on how soon the client's next request arrives, so it
/// would measure the client and the machine's load rather than the server's work per request.
/// </remarks>
public sealed class ServerProcess : IAsyncLifetime
{
    private AppProcess? _app;

    /// <summary>The running server.</summary>
    public AppProcess App => _app ?? throw new InvalidOperationException("The server has not started.");

    /// <summary>The sampling settings of a server CPU measurement, from budgets.json.</summary>
    public static CpuMeterOptions MeterOptions(BudgetGate gate)
    {
        ArgumentNullException.ThrowIfNull(gate);
        return new CpuMeterOptions
        {
            TargetBatchTime = TimeSpan.FromMilliseconds(gate.Book.Parameter("Cpu.Server.TargetBatchMilliseconds")),
            MinimumWarmUp = TimeSpan.FromSeconds(gate.Book.Parameter("Cpu.Server.MinimumWarmUpSeconds")),
        };
    }

    /// <summary>
    /// Measures the server's CPU per operation that <paramref name="send"/> drives (a batch of N requests or frames)
    /// and checks it against <paramref name="budgetName"/>, with the retry of <see cref="BudgetGate.CheckCost"/>. If it
    /// fails, the server process is profiled while <paramref name="send"/> drives it, to name its hottest methods.
    /// </summary>
    public static void CheckServerCost(BudgetGate gate, string budgetName, ServerProcess server, Action<int> send, string describe)
    {
        ArgumentNullException.ThrowIfNull(gate);
        ArgumentNullException.ThrowIfNull(server);
        var options = MeterOptions(gate);
        gate.CheckCost(budgetName, () => CpuMeter.PerServerOperation(server.App.ProcessId, send, options), describe, gate.Book.IntParameter("Cpu.Attempts"),
            () => CpuProfiler.PerServerOperation(server.App.ProcessId, send).ToAttribution());
    }

    /// <summary>Throws when a response's status is not the expected one (the clients' check of every request).</summary>
    public static void ExpectStatus(int status, int expected)
    {
        if (status != expected)
        {
            throw new InvalidOperationException($"The server answered {status}, not {expected}.");
        }
    }

    /// <summary>How many connections drive the server at once during a measured batch, from budgets.json.</summary>
    public static int Connections(BudgetGate gate) => (gate ?? throw new ArgumentNullException(nameof(gate))).Book.IntParameter("Cpu.Server.Connections");

    /// <inheritdoc />
    public async ValueTask InitializeAsync()
    {
        _app = await AppProcess.StartAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken, withEchoService: true,
            environment: new Dictionary<string, string> { ["DOTNET_ThreadPool_UnfairSemaphoreSpinLimit"] = "0", ["DOTNET_gcServer"] = "0", ["DOTNET_TieredPGO"] = "0" });
        WarmUp(TimeSpan.FromSeconds(BudgetGate.Default.Book.Parameter("Cpu.Server.WarmUpSeconds")));
    }

    /// <summary>
    /// Drives every measured workload in turn until <paramref name="duration"/> has passed, so the server's JIT has
    /// promoted the whole pipeline to tier 1 before the first measurement. Its JIT is in another process, out of the
    /// meter's sight; without this the first test measured tier-0 code at three times its steady cost.
    /// </summary>
    private void WarmUp(TimeSpan duration)
    {
        var body = System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(SystemUnderTest.Json.EmployeeData.List(9), SystemUnderTest.Json.EmployeeJson.Default.List.Write);
        using var delay = new HttpKeepAliveProbe(App.EndPoint, "/api/delay/async?ms=0");
        using var employees = new HttpKeepAliveProbe(App.EndPoint, "/api/employees?count=9");
        using var echo9 = new HttpKeepAliveProbe(App.EndPoint, "POST", "/api/employees/echo", "application/json", body);
        using var frames = SystemUnderTest.Sockets.Echo.EchoClient.Connect(App.EchoEndPoint!, 1_000, TimeSpan.FromSeconds(10));
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        while (System.Diagnostics.Stopwatch.GetElapsedTime(started) < duration)
        {
            for (var i = 0; i < 50; i++)
            {
                ExpectStatus(delay.Send(), 200);
                ExpectStatus(employees.Send(), 200);
                ExpectStatus(echo9.Send(), 200);
                frames.Echo();
            }
        }
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        _app?.Dispose();
        return ValueTask.CompletedTask;
    }
}

/// <summary>The tests that share one <see cref="ServerProcess"/>.</summary>
[CollectionDefinition(Name)]
public sealed class ServerProcessCollection : ICollectionFixture<ServerProcess>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Server process";
}
