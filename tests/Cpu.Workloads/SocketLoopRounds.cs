using System.Globalization;
using PerfBudgets.Measuring;
using SystemUnderTest.Sockets;

namespace Cpu.Workloads;

/// <summary>
/// <c>--socket-loops MESSAGES ROUNDS</c>: the SAEA loop and the blocking loop over loopback in alternating rounds, in a
/// process that has done nothing else, each round printed as <c>round I SAEA_CPU_NS SAEA_MSG_PER_S BLOCKING_CPU_NS
/// BLOCKING_MSG_PER_S</c> (process CPU time, all threads; wall-clock rates). Measured inside a test assembly, the SAEA
/// loop paid for whatever the earlier tests had left: after them its CPU per message read 1.4-1.5 times the blocking
/// loop's (a thread pool grown by their load, whose idle workers spin for each pending completion's callback), alone 1.0.
/// </summary>
internal static class SocketLoopRounds
{
    public static void Run(int messages, int rounds)
    {
        var options = new SocketLoopOptions();
        using var saea = new SaeaLoop(options);
        using var blocking = new BlockingLoop(options);
        saea.Run(1_000);
        blocking.Run(1_000);
        for (var round = 0; round < rounds; round++)
        {
            var (s, saeaCpu) = Timed(() => saea.Run(messages));
            var (b, blockingCpu) = Timed(() => blocking.Run(messages));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"round {round} {saeaCpu} {s.MessagesPerSecond:0} {blockingCpu} {b.MessagesPerSecond:0}"));
        }
    }

    private static (SocketLoopResult Result, long CpuNanoseconds) Timed(Func<SocketLoopResult> run)
    {
        var before = CpuClock.CurrentProcessNanoseconds();
        var result = run();
        return (result, CpuClock.CurrentProcessNanoseconds() - before);
    }
}
