using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.Startup;

/// <summary>
/// The app's start counted: instructions from its process's first instruction to its first answer, under Callgrind on
/// the pinned runtime (its system calls reported beside them). CPU work added at startup (an eager cache, a reflection scan, a warm-up loop)
/// fails by count and names the methods that grew, on any machine.
/// </summary>
public sealed class StartupCountTests(CountedRuns runs)
{
    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Startup_FirstResponse_Instructions() =>
        CountedCheck.StartupAsync(runs, "Startup.FirstResponse.Instructions", "the app's start under Callgrind, from its first instruction to its first answer (GET /api/employees?count=9)");
}
