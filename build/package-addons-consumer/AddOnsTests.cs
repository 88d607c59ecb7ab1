using System.Runtime.CompilerServices;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting.Html;
using Xunit;

[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace AddOnsConsumer;

public static class Checksum
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static int Compute(int rounds)
    {
        var sum = 17;
        for (var i = 0; i < rounds; i++)
        {
            sum = unchecked(sum * 31 + i);
        }

        return sum;
    }
}

public sealed class AddOnsTests
{
    // A broken CPU budget with the Diagnostics add-on's profiler as its diagnosis: the failure names the hot method.
    // Then the Html add-on writes report.html from the results the gate recorded.
    [Fact]
    public void A_broken_cpu_budget_names_its_hot_method_and_the_run_is_reported_as_html()
    {
        var gate = BudgetGate.Default;
        void Operation() => Checksum.Compute(10_000);

        var act = () => gate.CheckCost("AddOns.Checksum.Compute.CpuCost", () => CpuMeter.PerOperation(Operation),
            maxAttempts: 1, diagnose: () => CpuProfiler.PerOperation(Operation).ToAttribution());

        var failure = Assert.Throws<BudgetExceededException>(act);
        Assert.Equal("AddOns.Checksum.Compute.CpuCost", failure.BudgetName);
        Assert.Contains("Checksum.Compute", failure.Message);
        var report = HtmlReport.Write(gate.Store.Directory);
        Assert.Contains("AddOns.Checksum.Compute.CpuCost", File.ReadAllText(report));
    }
}
