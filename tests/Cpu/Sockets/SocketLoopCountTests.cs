using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.Sockets;

public sealed class SocketLoopCountTests(CountedRuns runs)
{
    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [InlineData("Sockets.SaeaLoop", "Instructions")]
    [InlineData("Sockets.SaeaLoop", "Syscalls")]
    [InlineData("Sockets.ValueTaskLoop", "Instructions")]
    [InlineData("Sockets.ValueTaskLoop", "Syscalls")]
    public Task Sockets_Loop_Counts(string workload, string figure) =>
        CountedCheck.InProcessAsync(runs, workload, $"{workload}.{figure}", "one 1,000-byte message sent, received and verified over loopback, per message");

    // The blocking loop's counts, beside the two asynchronous loops' budgets: what a message costs when the thread waits
    // in the kernel instead. Recorded, not gated (the runtimes comparison reads them).
    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Sockets_BlockingLoop_counts_are_recorded()
    {
        if (runs.UnavailableReason is { } reason)
        {
            throw new BudgetNotMeasuredException(reason);
        }

        var run = await runs.InProcess;
        run.StandardOutput.Should().Contain("workload Sockets.BlockingLoop check ok", "the counted workload did its work");
        var measurement = run.Measurement("Sockets.BlockingLoop");
        const string Describe = "one 1,000-byte message sent and received with blocking Send and Receive over loopback, per message";
        SuiteGate.Current.Observe("Sockets.BlockingLoop.Instructions", measurement.InstructionsPerOperation, "instructions/message", $"{Describe}; {measurement}");
        SuiteGate.Current.Observe("Sockets.BlockingLoop.Syscalls", measurement.SystemCallsPerOperation, "syscalls/message", $"{Describe}; {measurement}");
    }
}
