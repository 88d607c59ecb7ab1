using System.Globalization;
using PerfBudgets;
using PerfBudgets.Measuring;

namespace PerfGate.Tests.Load.Paired;

/// <summary>The base's app and this build's, each in its own process as shipped, under one paired HTTP load (<see cref="PairedHttpLoad"/>).</summary>
internal static class PairedAppLoad
{
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
