using PerfBudgets;
using PerfBudgets.Budgets;
using PerfGate.Tests.Cpu.Counted;

namespace PerfGate.Tests.Cpu.Sockets;

public sealed class SocketLoopCountTests(CountedRuns runs)
{
    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [InlineData("Sockets.SaeaLoop", "Instructions")]
    [InlineData("Sockets.SaeaLoop", "Syscalls")]
    [InlineData("Sockets.ValueTaskLoop", "Instructions")]
    [InlineData("Sockets.ValueTaskLoop", "Syscalls")]
    public Task Sockets_Loop_Counts(string workload, string figure) =>
        CountedCheck.InProcessAsync(runs, workload, $"{workload}.{figure}", "one 1,000-byte message sent, received and verified over loopback, per message");
}
