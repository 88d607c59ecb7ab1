using System.Diagnostics;
using System.Globalization;
using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// The neighbours' CPU: the machine's busy time less this process tree's, read from /proc.
public sealed class NeighbourCpuTests
{
    [Fact]
    public void The_share_is_the_machines_busy_time_less_the_trees_over_the_machines_capacity()
    {
        var before = new NeighbourCpu.Snapshot(MachineBusy: 1_000, MachineTotal: 4_000, Tree: 300);
        var after = new NeighbourCpu.Snapshot(MachineBusy: 1_300, MachineTotal: 4_400, Tree: 400);

        NeighbourCpu.ShareBetween(before, after).Should().BeApproximately(0.5, 1e-9, "300 busy ticks, 100 of them the tree's, of 400");
        NeighbourCpu.ShareBetween(before, before with { MachineTotal = 4_010 }).Should().BeNull("ten ticks tell nothing");
        NeighbourCpu.ShareBetween(null, after).Should().BeNull();
        NeighbourCpu.ShareBetween(before, after with { Tree = 900 }).Should().Be(0, "the share is never negative");
    }

    [Fact]
    public void A_busy_child_is_the_trees_and_a_busy_orphan_is_a_neighbours()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "/proc is Linux's");
        // Each loop spins until it has used a second of CPU (`ulimit -t 1`, then SIGXCPU ends it), however busy the
        // machine is: a loop bounded by the wall clock would get a few ticks beside a loaded machine's neighbours.
        const string SpinForOneCpuSecond = "ulimit -t 1; while :; do :; done";
        var start = NeighbourCpu.Take()!.Value;
        using (var child = Process.Start("sh", ["-c", SpinForOneCpuSecond]))
        {
            child.WaitForExit();
        }

        var afterChild = NeighbourCpu.Take()!.Value;
        (afterChild.Tree - start.Tree).Should().BeGreaterThanOrEqualTo(50, "the child spun for a second of CPU, and its time is the tree's once it is reaped");

        // A loop whose parent has exited belongs to init: a neighbour's, like another job's.
        var beside = NeighbourCpu.Take()!.Value;
        int orphanId;
        using (var launcher = Process.Start(new ProcessStartInfo("bash", ["-c", $"sh -c '{SpinForOneCpuSecond}' </dev/null >/dev/null 2>&1 & echo $!"]) { RedirectStandardOutput = true })!)
        {
            orphanId = int.Parse(launcher.StandardOutput.ReadToEnd().Trim(), CultureInfo.InvariantCulture);
            launcher.WaitForExit();
        }

        var deadline = Stopwatch.GetTimestamp() + (120 * Stopwatch.Frequency);
        while (!HasEnded(orphanId) && Stopwatch.GetTimestamp() < deadline)
        {
            Thread.Sleep(50);
        }

        HasEnded(orphanId).Should().BeTrue("the orphan stops after a second of CPU");
        var afterOrphan = NeighbourCpu.Take()!.Value;
        var neighbours = (afterOrphan.MachineBusy - beside.MachineBusy) - (afterOrphan.Tree - beside.Tree);
        neighbours.Should().BeGreaterThanOrEqualTo(50, "the orphan spun for a second of CPU outside the tree");
    }

    // Gone, or a zombie that init has not reaped yet (a container's first process may never reap it).
    private static bool HasEnded(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..].StartsWith('Z');
        }
        catch (IOException)
        {
            return true;
        }
    }
}
