using System.Runtime.CompilerServices;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Diagnostics.Tests;

// The CPU profiler names the method an operation spends its time in: a spin loop in a method the JIT may not inline,
// so it is its own frame on every sample that lands in it.
public sealed class CpuProfilerTests : IDisposable
{
    private readonly TestBudgets _budgets = new("cpu-profiler");

    private static long Sink { get; set; }

    public void Dispose() => _budgets.Dispose();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long DeliberatelySlowMethod()
    {
        long x = 1;
        for (var i = 0; i < 20_000; i++)
        {
            x = (x * 31) ^ i;
        }

        return x;
    }

    private static void SlowOperation() => Sink += DeliberatelySlowMethod();

    [Fact]
    public void Lists_the_method_the_operation_spends_its_time_in()
    {
        var profile = CpuProfiler.PerOperation(SlowOperation, TimeSpan.FromSeconds(1));

        profile.Samples.Should().BeGreaterThan(20, "a second of a busy thread gives samples even on a loaded machine: {0}", profile);
        profile.Methods.Take(5).Select(m => m.Method).Should().Contain(
            $"{typeof(CpuProfilerTests).FullName}.{nameof(DeliberatelySlowMethod)}", profile.ToString());
        profile.Describe().Should().StartWith("hottest methods (exclusive samples of ");
    }

    [Fact]
    public void A_failing_cpu_budget_lists_the_hottest_method_under_the_failure_line()
    {
        var gate = _budgets.Gate(requireOptimizedBuild: true);
        var options = new CpuMeterOptions { Batches = 5, MinimumWarmUp = TimeSpan.FromMilliseconds(200), QuietJitWindow = TimeSpan.FromMilliseconds(100), MaximumWarmUp = TimeSpan.FromSeconds(2) };

        var act = () => gate.CheckCost("Test.SlowOperation.CpuCost", () => CpuMeter.PerOperation(SlowOperation, options), "a deliberately slow operation",
            maxAttempts: 1, diagnose: () => CpuProfiler.PerOperation(SlowOperation, TimeSpan.FromSeconds(1)).ToAttribution());

        var lines = act.Should().Throw<BudgetExceededException>().Which.Message.Split(Environment.NewLine);
        lines.Should().HaveCount(2);
        lines[0].Should().StartWith("Test.SlowOperation.CpuCost: ");
        lines[1].Should().StartWith("  hottest methods (exclusive samples of ").And.Contain($"{nameof(CpuProfilerTests)}.{nameof(DeliberatelySlowMethod)} ");
        ResultStore.ReadAll(gate.Store.ResultsPath).Single().Attribution!.Entries.Select(e => e.Name)
            .Should().Contain($"{typeof(CpuProfilerTests).FullName}.{nameof(DeliberatelySlowMethod)}");
    }
}
