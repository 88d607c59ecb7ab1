using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace Load.Paired;

/// <summary>
/// The pairing measured against itself: two copies of the same workload host (this build on both sides, A/A), the
/// pooled JSON round trip of the 9-employee list run in both at once, round after round, and head ÷ base of their CPU
/// time per operation gated as the paired budgets are. Nothing differs but the processes and the machine's noise, so
/// the interval's width is what the pairing resolves on this machine, and an interval wholly beyond ±5% would be a
/// false alarm of the method (a side favoured by its start order, its core, its clock), not of the code.
/// </summary>
public sealed class PairedAaTests(ITestOutputHelper output)
{
    private const string Workload = "Json.RoundTrip.BufferWriter.List9";
    private const string Ceiling = "Json.RoundTrip.BufferWriter.List9.CpuTime.AA.Max";
    private const string Floor = "Json.RoundTrip.BufferWriter.List9.CpuTime.AA.Min";

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void The_same_build_against_itself_stays_within_its_interval()
    {
        var host = Path.Combine(AppContext.BaseDirectory, "Cpu.Workloads.dll");
        var comparison = PairedWorkloads.CompareCpuTime(host, host, ["--serve", Workload], Operations(_gate.Book), Options(_gate.Book))
            .WithBase("this build itself (A/A: Cpu.Workloads on both sides)");
        output.WriteLine($"A/A {Workload}: head/base {comparison.Ratio:0.000}, interval {comparison.Lower:0.000}-{comparison.Upper:0.000} over {comparison.BaseRounds.Count} pairs after {comparison.WarmUpPairs} of warm-up");
        _gate.CheckAll(_gate.VsBaseCheck(Ceiling, comparison), _gate.VsBaseCheck(Floor, comparison));
    }

    /// <summary>The A/A run's rounds and pairs of processes, which the round trip's comparison with its base shares.</summary>
    internal static PairedRoundsOptions Options(BudgetBook book) =>
        new(Pairs: book.IntParameter("Load.Paired.AA.Pairs"), WarmUpPairs: book.IntParameter("Load.Paired.WarmUpPairs"), Confidence: book.Parameter("Load.Paired.Confidence"))
        {
            ProcessPairs = book.IntParameter("Load.Paired.AA.ProcessPairs"),
        };

    /// <summary>The A/A run's round trips per round.</summary>
    internal static int Operations(BudgetBook book) => book.IntParameter("Load.Paired.AA.Operations");
}
