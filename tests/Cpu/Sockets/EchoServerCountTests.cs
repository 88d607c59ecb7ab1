using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.Sockets;

public sealed class EchoServerCountTests(CountedRuns runs)
{
    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [InlineData("Sockets.Echo.ServerInstructions")]
    [InlineData("Sockets.Echo.ServerSyscalls")]
    public Task Sockets_Echo_Counts(string budget) =>
        CountedCheck.ServerAsync(runs, "Sockets.Echo", budget, "1,000-byte frames from one blocking client, echo service under Callgrind, per frame");
}
