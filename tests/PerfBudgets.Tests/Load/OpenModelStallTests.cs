using System.Diagnostics;
using System.Globalization;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using PerfBudgets;
using PerfBudgets.Load;

namespace PerfBudgets.Tests.Load;

/// <summary>
/// Why the open model exists: a server that stalls for a second in the middle of a run. The open model keeps
/// sending on schedule, and every request due during the stall waits for it, so its p99 includes the stall. The
/// closed model stops sending while its copies wait (coordinated omission), so only one request per copy sees the
/// stall and its p99 stays small.
/// </summary>
public sealed class OpenModelStallTests(ITestOutputHelper output)
{
    // The repository's budgets.json: the run's sizes are its parameters, and its two p99s are observed there.
    private readonly BudgetGate _gate = BudgetGate.Default;

    [Fact]
    public async Task A_server_stall_shows_in_the_open_model_p99_and_hides_from_the_closed_model()
    {
        var stall = TimeSpan.FromMilliseconds(_gate.Book.IntParameter("Load.Stall.StallMs"));
        var rate = _gate.Book.Parameter("Load.Stall.RequestsPerSecond");
        var copies = _gate.Book.IntParameter("Load.Stall.Copies");
        var measured = TimeSpan.FromSeconds(_gate.Book.Parameter("Load.Stall.DurationSeconds"));
        var warmUp = TimeSpan.FromSeconds(0.5);
        await using var server = await StallingServer.StartAsync();
        using var client = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = 512, UseProxy = false }) { BaseAddress = server.BaseAddress };
        var step = HttpLoadStep.Get(client, "/");

        var open = await RunWithStallAsync(server, "Load.Stall.Open",
            [LoadSimulation.Inject(rate, warmUp).AsWarmUp(), LoadSimulation.Inject(rate, measured)], step, warmUp, stall);
        var closed = await RunWithStallAsync(server, "Load.Stall.Closed",
            [LoadSimulation.KeepConstant(copies, warmUp).AsWarmUp(), LoadSimulation.KeepConstant(copies, measured)], step, warmUp, stall);

        _gate.Observe("Load.Stall.OpenP99Ms", open.P99Ms, "ms", open.ToString());
        _gate.Observe("Load.Stall.ClosedP99Ms", closed.P99Ms, "ms", closed.ToString());
        var why = string.Create(CultureInfo.InvariantCulture, $"a {stall.TotalMilliseconds:0} ms stall; open: {open}; closed: {closed}");
        open.Failed.Should().Be(0, why);
        closed.Failed.Should().Be(0, why);
        // About a third of the open run's requests are due during the stall, so its p99 is most of the stall.
        open.P99Ms.Should().BeGreaterThan(stall.TotalMilliseconds / 2, why);
        // The closed model saw the stall too (its max), but only its few copies waited: its p99 stays an order of magnitude smaller.
        closed.MaxMs.Should().BeGreaterThan(stall.TotalMilliseconds / 2, why);
        closed.P99Ms.Should().BeLessThan(open.P99Ms / 10, why);
    }

    private async Task<LoadResult> RunWithStallAsync(StallingServer server, string name, LoadSimulation[] phases,
        Func<LoadStepContext, CancellationToken, ValueTask<LoadStepOutcome>> step, TimeSpan warmUp, TimeSpan stall)
    {
        // The first request that starts one second or more into the measured phase stalls the server. The request
        // itself starts the stall, so it falls inside the measured phase however late a busy machine runs the runner
        // (a timer racing the runner's clock stalled the server whenever the timer happened to fire).
        var mark = warmUp + TimeSpan.FromSeconds(1);
        var clock = Stopwatch.StartNew();
        var stalled = 0;
        var scenario = new LoadScenario(name, phases, (context, ct) =>
        {
            if (clock.Elapsed >= mark && Interlocked.Exchange(ref stalled, 1) == 0)
            {
                server.StallFor(stall);
            }

            return step(context, ct);
        });
        var result = await LoadRunner.RunAsync(scenario, TestContext.Current.CancellationToken);
        stalled.Should().Be(1, "a request started one second into the measured phase and stalled the server");
        output.WriteLine(result.ToString());
        _gate.RecordLoad(result);
        return result;
    }

    /// <summary>A minimal Kestrel app on a loopback ephemeral port whose one endpoint can be told to stall.</summary>
    private sealed class StallingServer : IAsyncDisposable
    {
        private readonly WebApplication _app;
        private long _stallUntilTicks;

        private StallingServer(WebApplication app) => _app = app;

        public Uri BaseAddress => new(_app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First() + "/");

        public static async Task<StallingServer> StartAsync()
        {
            var builder = WebApplication.CreateSlimBuilder();
            builder.Logging.ClearProviders();
            builder.WebHost.UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
            var app = builder.Build();
            var server = new StallingServer(app);
            app.MapGet("/", async context =>
            {
                // Every request that arrives during the stall waits for its end, as behind a lock or a GC pause.
                var wait = Volatile.Read(ref server._stallUntilTicks) - Environment.TickCount64;
                if (wait > 0)
                {
                    await Task.Delay(TimeSpan.FromMilliseconds(wait), context.RequestAborted);
                }

                await context.Response.WriteAsync("ok", context.RequestAborted);
            });
            await app.StartAsync();
            return server;
        }

        public void StallFor(TimeSpan stall) => Volatile.Write(ref _stallUntilTicks, Environment.TickCount64 + (long)stall.TotalMilliseconds);

        public async ValueTask DisposeAsync()
        {
            await _app.StopAsync();
            await _app.DisposeAsync();
        }
    }
}
