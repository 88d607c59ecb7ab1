using System.Diagnostics;
using SystemUnderTest.Sockets.Echo;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace Load.Paired;

/// <summary>
/// The echo service (1,000-byte frames over persistent connections, each echo checked byte for byte) on the base
/// commit's build and on this one, both in the app as shipped, loaded in alternating short rounds by the same closed
/// loops (<see cref="PairedRounds"/>, ABBA): frames per second, and the server's CPU time per frame from its own process
/// clock over the same rounds, as head ÷ base. Most of a frame's CPU time is the kernel's (its send and receive), which
/// no count of the app's instructions sees.
/// </summary>
public sealed class EchoServiceVsBaseTests(ITestOutputHelper output)
{
    private const string Rate = "Sockets.Echo.FramesPerSecond.VsBase";
    private const string Cpu = "Sockets.Echo.ServerCpuPerFrame.VsBase";
    private const string RateFigure = "frames/s";
    private const string CpuFigure = "server CPU µs/frame";
    private const int PayloadBytes = 1_000;

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Sockets_Echo_against_its_base()
    {
        if (VsBase.AppOrNotMeasured(_gate, (Rate, RateFigure), (Cpu, CpuFigure)) is not (var baseAssembly, var baseDescription))
        {
            return;
        }

        // A broken budget names the methods that grew in the echo service: one profile of each app, over one connection.
        var grown = new Lazy<Attribution>(() => PairedAppLoad.ProfileAgainstBase(baseAssembly, withEchoService: true,
            (app, ct) => EchoClient.ConnectAsync(app.EchoEndPoint!, PayloadBytes, ct),
            (client, ct) => client.EchoAsync(ct).AsTask()));
        // As the endpoint's: a break is confirmed over fresh pairs of apps, pooled.
        await _gate.CheckRunAsync(
            PairedAppLoad.FirstPairThenPooled(_gate, output, () => CompareAsync(baseAssembly), c => c, pooled => pooled),
            comparison =>
            [
                _gate.VsBaseCheck(Rate, comparison[0].WithBase(baseDescription)) with { Diagnose = () => grown.Value },
                _gate.VsBaseCheck(Cpu, comparison[1].WithBase(baseDescription)) with { Diagnose = () => grown.Value },
            ],
            _gate.Book.IntParameter("Load.Paired.Attempts"));
    }

    private async Task<IReadOnlyList<PairedComparison>> CompareAsync(string baseAssembly)
    {
        var book = _gate.Book;
        var ct = TestContext.Current.CancellationToken;
        var connections = book.IntParameter("Load.Paired.Echo.Connections");
        var round = TimeSpan.FromSeconds(book.Parameter("Load.Paired.Echo.RoundSeconds"));
        var options = new PairedRoundsOptions(
            book.IntParameter("Load.Paired.Echo.Pairs"),
            book.IntParameter("Load.Paired.WarmUpPairs"),
            book.Parameter("Load.Paired.Confidence"));
        using var baseApp = await AppProcess.StartAsync(TimeSpan.FromSeconds(30), ct, withEchoService: true, assembly: baseAssembly);
        using var headApp = await AppProcess.StartAsync(TimeSpan.FromSeconds(30), ct, withEchoService: true);
        using var baseLoad = await EchoLoad.ConnectAsync(baseApp, connections, ct);
        using var headLoad = await EchoLoad.ConnectAsync(headApp, connections, ct);
        var comparison = await PairedRounds.CompareAsync([RateFigure, CpuFigure],
            (side, token) => (side == PairedSide.Base ? baseLoad : headLoad).RoundAsync(round, token), options, ct);
        PairedAppLoad.Write(output, comparison);
        return comparison;
    }

    // One app's echo service under closed loops: one connection per loop, kept for the whole comparison.
    private sealed class EchoLoad : IDisposable
    {
        private readonly EchoClient[] _clients;
        private readonly Func<long> _serverClock;

        private EchoLoad(EchoClient[] clients, Func<long> serverClock)
        {
            _clients = clients;
            _serverClock = serverClock;
        }

        public static async Task<EchoLoad> ConnectAsync(AppProcess app, int connections, CancellationToken cancellationToken)
        {
            var clients = new EchoClient[connections];
            for (var i = 0; i < connections; i++)
            {
                clients[i] = await EchoClient.ConnectAsync(app.EchoEndPoint!, PayloadBytes, cancellationToken);
            }

            return new EchoLoad(clients, CpuClock.ForProcess(app.ProcessId));
        }

        // Frames per second and the server's CPU microseconds per frame over one round.
        public async Task<IReadOnlyList<double>> RoundAsync(TimeSpan length, CancellationToken cancellationToken)
        {
            var cpuBefore = _serverClock();
            var started = Stopwatch.GetTimestamp();
            var until = started + (long)(length.TotalSeconds * Stopwatch.Frequency);
            var frames = await Task.WhenAll(_clients.Select(client => Task.Run(async () =>
            {
                var echoed = 0L;
                while (Stopwatch.GetTimestamp() < until)
                {
                    await client.EchoAsync(cancellationToken);
                    echoed++;
                }

                return echoed;
            }, cancellationToken)));
            var elapsed = Stopwatch.GetElapsedTime(started).TotalSeconds;
            var cpu = _serverClock() - cpuBefore;
            var total = frames.Sum();
            return total > 0
                ? [total / elapsed, cpu / 1000.0 / total]
                : throw new InvalidOperationException($"No frame came back within a round of {length.TotalSeconds} s.");
        }

        public void Dispose()
        {
            foreach (var client in _clients)
            {
                client.Dispose();
            }
        }
    }
}
