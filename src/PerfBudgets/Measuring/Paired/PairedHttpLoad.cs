using System.Diagnostics;
using PerfBudgets.Statistics;

namespace PerfBudgets.Measuring;

/// <summary>
/// The same closed-model HTTP load on the base build's server and the head build's (<see cref="PairedRounds"/>), in two
/// phases. First duet rounds load both servers at once and measure each one's CPU time per request from its own process
/// clock: whatever the machine does in that second, it does to both, which makes it the sharpest of the three, and
/// steady enough to watch for the warm-up's end. Then alternating short rounds, one server loaded at a time in ABBA
/// order, measure what a user feels on warm servers: the requests per second and the 99th percentile of each round's
/// latencies.
/// </summary>
/// <remarks>
/// Both servers run throughout, loaded by the same generator in this process with the same number of connections. The
/// duet's rates are not used: two servers competing for the same cores share them by demand, so a server that needs
/// 30% more CPU per request lost only 4-7% of its duet rate, where alternating rounds show the loss it has alone.
/// Figures and how they were chosen: docs/paired-budgets.md.
/// </remarks>
public static class PairedHttpLoad
{
    /// <summary>The figure of the alternating rounds' rate.</summary>
    public const string RateFigure = "requests/s";

    /// <summary>The figure of the alternating rounds' p99.</summary>
    public const string P99Figure = "p99 ms";

    /// <summary>The figure of the duet rounds.</summary>
    public const string CpuFigure = "server CPU µs/request";

    /// <summary>
    /// Warms both servers up and measures them (duet rounds, then alternating rounds), and returns the rate, the p99
    /// and the CPU time per request, each as head ÷ base.
    /// </summary>
    /// <param name="baseServer">The base build's server.</param>
    /// <param name="headServer">The head build's server.</param>
    /// <param name="request">Sends one request with the client given (its base address is the server's) and says whether the answer was right.</param>
    /// <param name="options">Connections, rounds and their lengths.</param>
    /// <param name="cancellationToken">Cancels the run.</param>
    /// <exception cref="InvalidOperationException">A request failed or answered wrongly: a paired run gates speed, not behaviour.</exception>
    public static async Task<PairedHttpComparison> CompareAsync(PairedServer baseServer, PairedServer headServer,
        Func<HttpClient, CancellationToken, Task<bool>> request, PairedHttpLoadOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(baseServer);
        ArgumentNullException.ThrowIfNull(headServer);
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(options.Connections);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(options.RoundLength, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(options.DuetRoundLength, TimeSpan.Zero);
        using var baseClient = Client(baseServer.BaseAddress, options.Connections);
        using var headClient = Client(headServer.BaseAddress, options.Connections);
        var baseClock = CpuClock.ForProcess(baseServer.ProcessId);
        var headClock = CpuClock.ForProcess(headServer.ProcessId);
        Task<Round> RoundOn(PairedSide side, TimeSpan length, CancellationToken ct) => side == PairedSide.Base
            ? RoundAsync(baseClient, baseClock, request, options.Connections, length, ct)
            : RoundAsync(headClient, headClock, request, options.Connections, length, ct);

        // The duet first: its CPU time per request is steady enough to watch for the warm-up's end (the tiered JIT
        // keeps compiling for seconds under load), and the alternating rounds then start on warm servers.
        var duet = await PairedRounds.CompareTogetherAsync([CpuFigure],
            async ct =>
            {
                var both = await Task.WhenAll(RoundOn(PairedSide.Base, options.DuetRoundLength, ct), RoundOn(PairedSide.Head, options.DuetRoundLength, ct)).ConfigureAwait(false);
                return (both[0].Cpu, both[1].Cpu);
            },
            options.DuetRounds, cancellationToken).ConfigureAwait(false);
        var alternating = await PairedRounds.CompareAsync([RateFigure, P99Figure],
            async (side, ct) => (await RoundOn(side, options.RoundLength, ct).ConfigureAwait(false)).RateAndP99,
            options.Rounds, cancellationToken).ConfigureAwait(false);
        return new PairedHttpComparison(alternating[0], duet[0], alternating[1]);
    }

    private sealed record Round(double CpuMicrosecondsPerRequest, double RequestsPerSecond, double P99Milliseconds)
    {
        public IReadOnlyList<double> RateAndP99 => [RequestsPerSecond, P99Milliseconds];

        public IReadOnlyList<double> Cpu => [CpuMicrosecondsPerRequest];
    }

    private static async Task<Round> RoundAsync(HttpClient client, Func<long> serverClock,
        Func<HttpClient, CancellationToken, Task<bool>> request, int connections, TimeSpan round, CancellationToken cancellationToken)
    {
        var latencies = new List<long>[connections];
        var failures = 0;
        var cpuBefore = serverClock();
        var started = Stopwatch.GetTimestamp();
        var until = started + (long)(round.TotalSeconds * Stopwatch.Frequency);
        await Task.WhenAll(Enumerable.Range(0, connections).Select(loop => Task.Run(async () =>
        {
            var mine = latencies[loop] = new List<long>(4096);
            while (Stopwatch.GetTimestamp() < until)
            {
                var sent = Stopwatch.GetTimestamp();
                if (!await request(client, cancellationToken).ConfigureAwait(false))
                {
                    Interlocked.Increment(ref failures);
                }

                mine.Add(Stopwatch.GetTimestamp() - sent);
            }
        }, cancellationToken))).ConfigureAwait(false);
        var elapsed = Stopwatch.GetElapsedTime(started).TotalSeconds;
        var cpu = serverClock() - cpuBefore;
        if (failures > 0)
        {
            throw new InvalidOperationException($"{failures} requests of a paired round failed or answered wrongly: a paired run gates speed, not behaviour.");
        }

        var all = latencies.SelectMany(l => l).Order().ToArray();
        if (all.Length == 0)
        {
            return new Round(double.NaN, 0, double.NaN);
        }

        var p99 = Quantiles.NearestRank(all, 0.99) * 1000.0 / Stopwatch.Frequency;
        return new Round(cpu / 1000.0 / all.Length, all.Length / elapsed, p99);
    }

    private static HttpClient Client(Uri baseAddress, int connections) => new(new SocketsHttpHandler
    {
        MaxConnectionsPerServer = connections,
        PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
        UseProxy = false,
        AllowAutoRedirect = false,
    })
    {
        BaseAddress = baseAddress,
        Timeout = TimeSpan.FromSeconds(30),
    };
}
