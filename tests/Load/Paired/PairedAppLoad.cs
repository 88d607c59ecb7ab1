using System.Diagnostics;
using System.Globalization;
using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace Load.Paired;

/// <summary>The base's app and this build's, each in its own process as shipped, under one paired HTTP load (<see cref="PairedHttpLoad"/>).</summary>
internal static class PairedAppLoad
{
    private static readonly TimeSpan ProfileWarmUp = TimeSpan.FromSeconds(4);
    private static readonly TimeSpan ProfileLength = TimeSpan.FromSeconds(3);

    public static async Task<PairedHttpComparison> CompareAsync(BudgetGate gate, ITestOutputHelper output, string baseAssembly, bool withEchoService,
        Func<byte[], Func<HttpClient, CancellationToken, Task<bool>>> request, byte[] expected)
    {
        var book = gate.Book;
        var confidence = book.Parameter("Load.Paired.Confidence");
        var options = new PairedHttpLoadOptions(
            book.IntParameter("Load.Paired.Connections"),
            new PairedRoundsOptions(book.IntParameter("Load.Paired.Pairs"), WarmUpPairs: 4, confidence, MaxWarmUpPairs: 4),
            TimeSpan.FromSeconds(book.Parameter("Load.Paired.RoundSeconds")),
            new PairedRoundsOptions(book.IntParameter("Load.Paired.DuetPairs"), book.IntParameter("Load.Paired.WarmUpPairs"), confidence),
            TimeSpan.FromSeconds(book.Parameter("Load.Paired.DuetRoundSeconds")));
        var ct = TestContext.Current.CancellationToken;
        using var baseApp = await AppProcess.StartAsync(TimeSpan.FromSeconds(30), ct, withEchoService, assembly: baseAssembly);
        using var headApp = await AppProcess.StartAsync(TimeSpan.FromSeconds(30), ct, withEchoService);
        var comparison = await PairedHttpLoad.CompareAsync(
            new PairedServer(baseApp.BaseAddress, baseApp.ProcessId), new PairedServer(headApp.BaseAddress, headApp.ProcessId),
            request(expected), options, ct);
        Write(output, [comparison.RequestsPerSecond, comparison.CpuPerRequest, comparison.P99]);
        return comparison;
    }

    /// <summary>
    /// The run that a paired budget's attempts call (<see cref="BudgetGate.CheckRunAsync{T}"/>). The first attempt
    /// compares one pair of processes. A later attempt runs only when a paired budget broke. It compares
    /// Load.Paired.ConfirmingProcessPairs fresh pairs and pools them (<see cref="PairedComparison.Pooled"/>), so the
    /// interval that confirms a break is over pairs of processes (Student's t over their spread): each pair carries
    /// luck of its own that its rounds cannot show. The break it confirms is not pooled in, so a pair picked for bad luck does
    /// not count twice.
    /// </summary>
    /// <param name="gate">The suite's gate, for the number of pairs.</param>
    /// <param name="output">Where the pooled figures are written.</param>
    /// <param name="onePair">Starts a pair of processes, compares them and stops them.</param>
    /// <param name="figures">The comparisons of one result, in a fixed order.</param>
    /// <param name="pooled">A result from its pooled comparisons, in that order.</param>
    public static Func<Task<T>> FirstPairThenPooled<T>(BudgetGate gate, ITestOutputHelper output, Func<Task<T>> onePair,
        Func<T, IReadOnlyList<PairedComparison>> figures, Func<IReadOnlyList<PairedComparison>, T> pooled)
    {
        var attempts = 0;
        return async () =>
        {
            if (attempts++ == 0)
            {
                return await onePair();
            }

            var count = gate.Book.IntParameter("Load.Paired.ConfirmingProcessPairs");
            var pairs = new List<IReadOnlyList<PairedComparison>>(count);
            for (var i = 0; i < count; i++)
            {
                pairs.Add(figures(await onePair()));
            }

            var pool = Enumerable.Range(0, pairs[0].Count).Select(f => PairedComparison.Pooled([.. pairs.Select(p => p[f])])).ToList();
            output.WriteLine($"Pooled over {pairs.Count} fresh pairs of processes:");
            Write(output, pool);
            return pooled(pool);
        };
    }

    /// <summary>
    /// What a failing paired budget names: the methods that grew in this build's app against the base's. Both apps are
    /// started afresh, each warmed up by one connection, then profiled side by side
    /// (<see cref="CpuProfiler.CompareServersSideBySide"/>) while the two connections take turns. It runs only when a
    /// budget has failed, after the measurement.
    /// </summary>
    /// <param name="baseAssembly">The base's app.</param>
    /// <param name="withEchoService">Whether the apps start their echo service.</param>
    /// <param name="connect">Opens one connection to an app.</param>
    /// <param name="operation">One request or frame over that connection, checked.</param>
    public static Attribution ProfileAgainstBase<TConnection>(string baseAssembly, bool withEchoService,
        Func<AppProcess, CancellationToken, Task<TConnection>> connect, Func<TConnection, CancellationToken, Task> operation)
        where TConnection : IDisposable
    {
        var ct = TestContext.Current.CancellationToken;

        // On a pool thread: the profiler's run blocks on each operation, and no test context waits behind it.
        return Task.Run(async () =>
        {
            using var baseApp = await AppProcess.StartAsync(TimeSpan.FromSeconds(30), ct, withEchoService, assembly: baseAssembly);
            using var headApp = await AppProcess.StartAsync(TimeSpan.FromSeconds(30), ct, withEchoService);
            using var baseConnection = await connect(baseApp, ct);
            using var headConnection = await connect(headApp, ct);
            Action<int> Runner(TConnection connection) => operations =>
            {
                for (var i = 0; i < operations; i++)
                {
                    operation(connection, ct).GetAwaiter().GetResult();
                }
            };

            var runBase = Runner(baseConnection);
            var runHead = Runner(headConnection);

            // Long enough for the tiered JIT to have compiled the request's path at its last tier, as in the rounds.
            var warming = Stopwatch.StartNew();
            while (warming.Elapsed < ProfileWarmUp * 2)
            {
                runBase(100);
                runHead(100);
            }

            return CpuProfiler.CompareServersSideBySide(baseApp.ProcessId, runBase, headApp.ProcessId, runHead, ProfileLength);
        }, ct).GetAwaiter().GetResult();
    }

    /// <summary>Each comparison's line and both sides' rounds, for the test's output.</summary>
    public static void Write(ITestOutputHelper output, IEnumerable<PairedComparison> figures)
    {
        foreach (var figure in figures)
        {
            output.WriteLine(figure.ToString());
            output.WriteLine($"  base: {Rounds(figure.BaseRounds)}");
            output.WriteLine($"  head: {Rounds(figure.HeadRounds)}");
        }
    }

    private static string Rounds(IEnumerable<double> rounds) =>
        string.Join(' ', rounds.Select(v => v.ToString("0.###", CultureInfo.InvariantCulture)));
}
