using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;

namespace Load.Paired;

/// <summary>
/// The pooled JSON round trip of the 9-employee list (the buffer-writer strategy) on the base commit's workload host
/// and on this build's, as an adopter gates a library's operation: one <see cref="BudgetGate.CheckVsBase(string, Func{BaseBuild, PairedComparison})"/>
/// call, <see cref="PairedWorkloads"/> building the base's <c>Cpu.Workloads</c> and comparing the CPU time per operation
/// of both hosts, run at once round after round. It runs with the A/A run's settings (<see cref="PairedAaTests"/>), so
/// the A/A interval beside it is this budget's resolution on the machine. A failure names what grew
/// (<see cref="PairedWorkloadProfiler.CompareWithBase"/>: both builds' hosts sampled side by side, the program's own methods first).
/// </summary>
public sealed class JsonRoundTripVsBaseTests(ITestOutputHelper output)
{
    private const string Workload = "Json.RoundTrip.BufferWriter.List9";
    private const string Host = "tests/Cpu.Workloads/Cpu.Workloads.csproj";
    private const string Budget = "Json.RoundTrip.BufferWriter.List9.CpuTime.VsBase";

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void Json_RoundTrip_BufferWriter_List9_against_its_base()
    {
        var options = PairedAaTests.Options(_gate.Book);
        var operations = PairedAaTests.Operations(_gate.Book);
        string[] arguments = ["--serve", Workload];
        var result = _gate.CheckVsBase(Budget,
            baseBuild => PairedWorkloads.CompareCpuTime(baseBuild, Host, arguments, operations, options),
            baseBuild => PairedWorkloadProfiler.CompareWithBase(baseBuild, Host, arguments));
        output.WriteLine($"{Budget}: {result.Measured:0.000} ({result.Detail})");
    }
}
