using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using Xunit;

namespace TextStats.Tests;

/// <summary>
/// The CPU time of WordCounter.Add against the base commit's build, in the same run: timed, yet sharp, because both
/// builds run side by side on the same machine and only their ratio is gated.
/// </summary>
public sealed class CpuTimeVsBaseTests
{
    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void Add_cpu_time_against_the_base() =>
        // Builds TextStats.Workloads at the base commit, runs both builds' hosts side by side, gates head ÷ base.
        BudgetGate.Default.CheckVsBase("Text.Add.CpuTime.VsBase",
            baseBuild => PairedWorkloads.CompareCpuTime(baseBuild, Host, ["--serve", "Text.Add"], operations: 5_000, new PairedRoundsOptions()),
            // On a failure only: both hosts profiled side by side, and the methods that grew named, the library's own first.
            baseBuild => PairedWorkloadProfiler.CompareWithBase(baseBuild, Host, ["--serve", "Text.Add"]));

    private const string Host = "TextStats.Workloads/TextStats.Workloads.csproj";
}
