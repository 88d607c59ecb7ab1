using System.Diagnostics;
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
        var start = NeighbourCpu.Take()!.Value;
        using (var child = Process.Start("timeout", ["1", "sh", "-c", "while :; do :; done"]))
        {
            child.WaitForExit();
        }

        var afterChild = NeighbourCpu.Take()!.Value;
        (afterChild.Tree - start.Tree).Should().BeGreaterThanOrEqualTo(30, "the child spun for a second, and its time is the tree's once it is reaped");

        // A loop whose parent has exited belongs to init: a neighbour's, like another job's. `timeout` ends it by
        // itself; killing `timeout` instead would leave the loop spinning for ever.
        using (var orphan = Process.Start("bash", ["-c", "timeout 2 sh -c 'while :; do :; done' &"]))
        {
            orphan.WaitForExit();
        }

        var beside = NeighbourCpu.Take()!.Value;
        Thread.Sleep(1_500);
        var afterOrphan = NeighbourCpu.Take()!.Value;
        var neighbours = (afterOrphan.MachineBusy - beside.MachineBusy) - (afterOrphan.Tree - beside.Tree);
        neighbours.Should().BeGreaterThanOrEqualTo(30, "the orphan spun for most of that second and a half outside the tree");
    }
}
