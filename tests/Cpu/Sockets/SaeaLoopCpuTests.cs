using PerfBudgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Measuring;
using SystemUnderTest.Sockets;

namespace PerfGate.Tests.Cpu.Sockets;

public sealed class SaeaLoopCpuTests
{
    [Fact]
    public void Sockets_SaeaLoop_CpuCost()
    {
        var gate = BudgetGate.Default;
        using var loop = new SaeaLoop(new SocketLoopOptions());
        long sent = 0;

        // Both sides run on this thread, but an operation that pends completes on the socket engine's thread: the
        // process's CPU clock counts both, kernel time of the loopback sends and receives included.
        gate.CheckCost("Sockets.SaeaLoop.CpuCost", () => CpuMeter.PerOperationProcessWide(messages => sent += loop.Run(messages).Messages),
            "1,000-byte messages, sent, received and verified", gate.Book.IntParameter("Cpu.Attempts"),
            () => CpuProfiler.ProcessWide(messages => sent += loop.Run(messages).Messages).ToAttribution());

        sent.Should().BeGreaterThan(0);
    }
}
