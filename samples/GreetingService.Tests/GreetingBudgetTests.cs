using System.Diagnostics;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Load;
using PerfBudgets.Measuring;
using Xunit;

// Meters read this process's counters and time the server: one test at a time.
[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]

// One measuring test assembly at a time on this machine: `dotnet test Samples.slnx` starts the test projects side by
// side, and one that measures beside another measures the other one too.
[assembly: AssemblyFixture(typeof(MeasurementLock))]

namespace GreetingService.Tests;

public sealed class GreetingBudgetTests
{
    private const string Path = "/greet/Ada";
    private static readonly byte[] Expected = """{"text":"Hello, Ada!"}"""u8.ToArray();

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Server_bytes_per_request()
    {
        // The service in this process: a keep-alive client on the calling thread drives it, its own bytes are taken
        // out, and the smallest of five batches is gated (other work in the process only adds).
        await using var app = GreetingApp.Build(["--urls", "http://127.0.0.1:0"]);
        await app.StartAsync(TestContext.Current.CancellationToken);
        var address = new Uri(app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single());
        using var probe = new HttpKeepAliveProbe(new IPEndPoint(IPAddress.Loopback, address.Port), Path);
        var failures = 0;
        for (var i = 0; i < 500; i++)
        {
            failures += probe.Send() == 200 ? 0 : 1;
        }

        var measured = AllocationMeter.PerOperationExcludingCaller(() => failures += probe.Send() == 200 ? 0 : 1, operations: 2_000, batches: 5);
        Assert.Equal(0, failures);
        BudgetGate.Default.Check("Greeting.Endpoint.ServerBytesPerRequest", measured.Smallest, measured.ToString());
        await app.StopAsync(TestContext.Current.CancellationToken);
    }

    // One counted run of the service for both counted budgets, started by the first test that needs it.
    private static readonly Lazy<Task<InstructionMeasurement>> Counted = new(CountAsync);

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Server_instructions_per_request() =>
        BudgetGate.Default.CheckCount("Greeting.Endpoint.ServerInstructions", await CountedFor("Greeting.Endpoint.ServerInstructions"));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Server_system_calls_per_request() =>
        // A syscalls-max budget gates the same measurement's system calls per request.
        BudgetGate.Default.CheckCount("Greeting.Endpoint.ServerSyscalls", await CountedFor("Greeting.Endpoint.ServerSyscalls"));

    private static Task<InstructionMeasurement> CountedFor(string budget)
    {
        if (InstructionMeter.UnavailableReason is { } reason)
        {
            BudgetGate.Default.NotMeasured(budget, reason); // throws: skipped here, failed under CI=true
        }

        return Counted.Value;
    }

    // The service under Callgrind, on the pinned runtime; each round of requests is counted from outside, every thread.
    // A session whose inputs (the start, the service's files, this test's files) match a stored one's is reused, and
    // the service is not started at all.
    private static async Task<InstructionMeasurement> CountAsync()
    {
        using var callgrind = new CallgrindServer();
        var start = ServiceProcess.Planned(callgrind);
        var session = await callgrind.MeasureSessionAsync(start, AppContext.BaseDirectory, steering: [], async () =>
        {
            using var service = await ServiceProcess.StartAsync(start, counted: true);
            using var probe = new HttpKeepAliveProbe(service.EndPoint, Path) { Timeout = TimeSpan.FromSeconds(60) };
            void Send() => Assert.Equal(200, probe.Send());
            CallgrindServer.WarmUp(service.ProcessId, Send, operations: 100);
            return new Dictionary<string, InstructionMeasurement>
            {
                ["Greeting.Endpoint"] = callgrind.Measure(service.ProcessId, "Greeting.Endpoint", Send, operations: 200, rounds: 5),
            };
        });
        return session["Greeting.Endpoint"];
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Under_load_closed_and_open()
    {
        using var service = await ServiceProcess.StartAsync();
        using var client = new HttpClient { BaseAddress = service.Address };
        var gate = BudgetGate.Default;

        // Closed model: 4 copies, each sending its next request when the last one is answered.
        var closed = await LoadRunner.RunAsync(new LoadScenario("greeting-closed", Copies: 4, WarmUp: TimeSpan.FromSeconds(1),
            Duration: TimeSpan.FromSeconds(gate.Book.Parameter("Greeting.Load.DurationSeconds")),
            Step: async (_, ct) => (await client.GetStringAsync(Path, ct)).Contains("Hello, Ada!", StringComparison.Ordinal)), TestContext.Current.CancellationToken);
        gate.RecordLoad(closed);

        // Open model: requests on a fixed schedule, latency from each one's intended start.
        var open = await LoadRunner.RunAsync(new LoadScenario("greeting-open",
            [
                LoadSimulation.Inject(200, TimeSpan.FromSeconds(1)).AsWarmUp(),
                LoadSimulation.Inject(200, TimeSpan.FromSeconds(gate.Book.Parameter("Greeting.Load.DurationSeconds"))),
            ],
            HttpLoadStep.Get(client, Path, Expected)), TestContext.Current.CancellationToken);
        gate.RecordLoad(open);

        gate.CheckAll(
            new BudgetCheck("Greeting.Endpoint.P99Ms", closed.P99Ms, closed.ToString()),
            new BudgetCheck("Greeting.Endpoint.FailedRequests", closed.Failed + open.Failed, closed.ErrorSummary()),
            new BudgetCheck("Greeting.Endpoint.Open.P99Ms", open.P99Ms, open.ToString()),
            new BudgetCheck("Greeting.Endpoint.Open.AchievedRateRatio", open.AchievedRateRatio, open.ToString()),
            // Footprint: the service's peak working set after both runs.
            new BudgetCheck("Greeting.Service.PeakWorkingSetBytes", ProcessMemory.PeakWorkingSetBytes(service.ProcessId) ?? double.NaN, "VmHWM of the service"));
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Server_cpu_per_request_p99()
    {
        using var service = await ServiceProcess.StartAsync();
        if (RequestCostMeter.UnavailableReason(service.ProcessId) is { } reason)
        {
            BudgetGate.Default.NotMeasured("Greeting.Endpoint.P99ToP50CpuPerRequest", reason);
        }

        using var probe = new HttpKeepAliveProbe(service.EndPoint, Path);
        var cost = RequestCostMeter.Measure("GET /greet/Ada", service.ProcessId, () => Assert.Equal(200, probe.Send()), warmUp: 300, requests: 500);
        BudgetGate.Default.Check("Greeting.Endpoint.P99ToP50CpuPerRequest", cost.P99ToP50, cost.ToString());
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task No_blocking_before_the_first_response()
    {
        // The service launched as it ships, recorded from its first instruction to its first 2xx.
        var service = System.IO.Path.Combine(AppContext.BaseDirectory, "GreetingService.dll");
        var startup = await BlockingMeter.MeasureStartupAsync(
            port => (new ProcessStartInfo("dotnet", [service, "--urls", $"http://127.0.0.1:{port}"]), "/greet/Ada"),
            TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken);
        BudgetGate.Default.Check("Greeting.Startup.BlockedMs", startup.BlockedMilliseconds, startup.Describe("first response"));
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task No_blocking_or_lock_contention_per_request()
    {
        using var service = await ServiceProcess.StartAsync();
        using var client = new HttpClient { BaseAddress = service.Address };
        var m = await BlockingMeter.MeasureAsync(service.ProcessId, async ct =>
        {
            var sent = 0L;
            var tasks = Enumerable.Range(0, 8).Select(async _ =>
            {
                for (var i = 0; i < 200; i++)
                {
                    await client.GetStringAsync(Path, ct);
                    Interlocked.Increment(ref sent);
                }
            });
            await Task.WhenAll(tasks);
            return sent;
        }, TestContext.Current.CancellationToken);
        BudgetGate.Default.CheckAll(
            new BudgetCheck("Greeting.Endpoint.BlockedMsPerRequest", m.BlockedMillisecondsPerOperation, m.Describe("request")),
            new BudgetCheck("Greeting.Endpoint.LockContentionsPerRequest", m.ContentionsPerOperation, m.Describe("request")));
    }
}
