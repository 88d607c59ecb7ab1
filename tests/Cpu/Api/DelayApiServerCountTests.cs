using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.Api;

public sealed class DelayApiServerCountTests(CountedRuns runs)
{
    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [InlineData("Api.DelayAsync.ServerInstructions")]
    [InlineData("Api.DelayAsync.ServerSyscalls")]
    public Task Api_DelayAsync_Counts(string budget) =>
        CountedCheck.ServerAsync(runs, "Api.DelayAsync", budget, "GET /api/delay/async?ms=0, one keep-alive connection, server under Callgrind, per request");
}
