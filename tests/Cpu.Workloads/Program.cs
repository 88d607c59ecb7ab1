namespace Cpu.Workloads;

/// <summary>
/// Runs the named workloads (or every one) with their counted regions, one after another in this process, and prints
/// one line per workload with its correctness check, which the gate asserts: a workload that stopped doing its work
/// would otherwise count as a cheap one. <c>--serve NAME</c> serves one of the <see cref="ServedWorkloads"/> on
/// standard input and output instead, for the meter that counts every thread; <c>--socket-loops MESSAGES ROUNDS</c>
/// times the two socket loops in a process of their own (<see cref="SocketLoopRounds"/>).
/// </summary>
internal static class WorkloadHost
{
    private static int Main(string[] args)
    {
        if (args is ["--serve", var served])
        {
            ServedWorkloads.Serve(served);
            return 0;
        }

        if (args is ["--socket-loops", var messages, var rounds])
        {
            SocketLoopRounds.Run(int.Parse(messages, System.Globalization.CultureInfo.InvariantCulture), int.Parse(rounds, System.Globalization.CultureInfo.InvariantCulture));
            return 0;
        }

        // The runtime this host really runs on, which the suite checks against the pinned one (CountedRuntime).
        Console.WriteLine($"runtime {Environment.Version}");
        foreach (var name in args.Length == 0 ? CountedWorkloads.Names : args)
        {
            var check = CountedWorkloads.Run(name);
            Console.WriteLine($"workload {name} check {check}");
        }

        return 0;
    }
}
