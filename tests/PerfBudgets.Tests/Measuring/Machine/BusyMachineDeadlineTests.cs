using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// A counted run's deadline: the wall clock less what the neighbours took, at most six times the timeout.
public sealed class BusyMachineDeadlineTests
{
    [Fact]
    public void On_a_quiet_machine_it_is_the_wall_clock()
    {
        var (deadline, advance) = Deadline(TimeSpan.FromSeconds(600), neighbourShare: 0);

        advance(TimeSpan.FromSeconds(599));
        deadline.Remaining.Should().Be(TimeSpan.FromSeconds(1));
        advance(TimeSpan.FromSeconds(1));
        deadline.Remaining.Should().Be(TimeSpan.Zero);
        deadline.ToString().Should().Be("600 s");
    }

    [Fact]
    public void Neighbours_holding_three_quarters_of_the_machine_stretch_it_four_times()
    {
        var (deadline, advance) = Deadline(TimeSpan.FromSeconds(600), neighbourShare: 0.75);

        advance(TimeSpan.FromSeconds(2_000));
        deadline.Counted.Should().Be(TimeSpan.FromSeconds(500));
        deadline.Remaining.Should().Be(TimeSpan.FromSeconds(100), "a starved run is not a hung one");
        advance(TimeSpan.FromSeconds(400));
        deadline.Remaining.Should().Be(TimeSpan.Zero);
        deadline.ToString().Should().Be("600 s of the time the neighbours left it (2400 s of wall clock, the neighbours holding 75% of the machine; at most 6 times the timeout)");
    }

    [Fact]
    public void It_never_stretches_past_six_times_the_timeout()
    {
        var (deadline, advance) = Deadline(TimeSpan.FromSeconds(100), neighbourShare: 0.99);

        advance(TimeSpan.FromSeconds(590));
        deadline.Remaining.Should().Be(TimeSpan.FromSeconds(10), "the cap is nearer than the 94 s the neighbours left");
        advance(TimeSpan.FromSeconds(10));
        deadline.Remaining.Should().BeLessThanOrEqualTo(TimeSpan.Zero);
    }

    [Fact]
    public void It_reads_proc_at_most_once_a_second_however_often_it_is_asked()
    {
        var now = TimeSpan.Zero;
        var reads = 0;
        var deadline = new BusyMachineDeadline(TimeSpan.FromSeconds(10), () => now, () =>
        {
            reads++;
            return new NeighbourCpu.Snapshot(MachineBusy: 0, MachineTotal: (long)(now.TotalSeconds * 200), Tree: 0);
        });

        for (var i = 0; i < 100; i++)
        {
            now += TimeSpan.FromMilliseconds(5);
            deadline.Remaining.Should().Be(TimeSpan.FromSeconds(10) - now, "a quiet machine's stretch counts whole, read or not");
        }

        reads.Should().Be(1, "half a second of asking is one reading, the first");
        now += TimeSpan.FromSeconds(1);
        _ = deadline.Remaining;
        reads.Should().Be(2);
    }

    [Fact]
    public void Without_proc_every_stretch_counts_whole()
    {
        var now = TimeSpan.Zero;
        var deadline = new BusyMachineDeadline(TimeSpan.FromSeconds(10), () => now, () => null);

        now = TimeSpan.FromSeconds(10);
        deadline.Remaining.Should().Be(TimeSpan.Zero);
    }

    // A machine of 2 CPUs at 100 ticks a second, the neighbours holding the given share of it and this tree nothing.
    private static (BusyMachineDeadline Deadline, Action<TimeSpan> Advance) Deadline(TimeSpan timeout, double neighbourShare)
    {
        var now = TimeSpan.Zero;
        NeighbourCpu.Snapshot? Take()
        {
            var total = (long)(now.TotalSeconds * 200);
            return new NeighbourCpu.Snapshot(MachineBusy: (long)(total * neighbourShare), MachineTotal: total, Tree: 0);
        }

        var deadline = new BusyMachineDeadline(timeout, () => now, Take);
        return (deadline, step => now += step);
    }
}
