namespace PerfGate.Tests.Cpu.Workloads;

/// <summary>
/// Runs the named workloads (or every one) with their counted regions, one after another in this process, and prints
/// one line per workload with its correctness check, which the gate asserts: a workload that stopped doing its work
/// would otherwise count as a cheap one.
/// </summary>
internal static class WorkloadHost
{
    private static int Main(string[] args)
    {
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
