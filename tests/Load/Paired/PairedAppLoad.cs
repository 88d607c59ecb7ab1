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
        foreach (var figure in new[] { comparison.RequestsPerSecond, comparison.CpuPerRequest, comparison.P99 })
        {
            output.WriteLine(figure.ToString());
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  base: {string.Join(' ', figure.BaseRounds.Select(v => v.ToString("0.###", CultureInfo.InvariantCulture)))}"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  head: {string.Join(' ', figure.HeadRounds.Select(v => v.ToString("0.###", CultureInfo.InvariantCulture)))}"));
        }

        return comparison;
    }
}
