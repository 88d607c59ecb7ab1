using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace Cpu.Counted;

// The counted processes run on the runtime the repository pins, whatever the machine has installed.
public sealed class CountedRuntimeTests(CountedRuns runs)
{
    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task The_workload_host_runs_on_the_pinned_runtime()
    {
        if (runs.UnavailableReason is { } reason)
        {
            // As the gate treats a budget it could not measure: skipped on a developer's machine, a failure under CI
            // unless the counted budgets were turned off on purpose.
            var options = SuiteGate.Current.Options;
            var message = $"the counted runtime is not used here ({reason})";
            Assert.False(options.IsCi && !options.CountedBudgetsOff, $"{message}: under CI=true what is not measured fails (PERF_INSTRUCTIONS=off turns the counted budgets off on purpose)");
            throw new BudgetNotMeasuredException(message);
        }

        var run = await runs.InProcess;

        CountedRuntime.Current.IsPinned.Should().BeTrue("the suite lays the pinned runtime out beside itself (the PerfBudgets package's buildTransitive/PerfBudgets.targets)");
        run.StandardOutput.Should().Contain($"runtime {CountedRuntime.Current.Version}\n", "the host reports the runtime it runs on");
        SuiteGate.Current.Book.Budgets.Where(b => b.RecordedOn is not null).Should().OnlyContain(b => b.RecordedOn!.Runtime == CountedRuntime.Current.Version,
            "every count is recorded on the pinned runtime");
    }
}
