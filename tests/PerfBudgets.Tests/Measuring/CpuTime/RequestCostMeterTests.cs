using System.Diagnostics;
using PerfBudgets.Measuring;
using ThreadTime = PerfBudgets.Measuring.ProcessThreadClock.ThreadTime;

namespace PerfBudgets.Tests.Measuring;

public sealed class RequestCostMeterTests
{
    [Fact]
    public void The_breakdown_sums_threads_of_one_name_counts_a_new_thread_from_zero_and_drops_idle_ones()
    {
        var before = new Dictionary<int, ThreadTime>
        {
            [10] = new(".NET TP Worker", 1_000),
            [11] = new(".NET TP Worker", 5_000),
            [12] = new(".NET Sockets", 7_000),
            [13] = new("gone", 9_000),
        };
        var after = new Dictionary<int, ThreadTime>
        {
            [10] = new(".NET TP Worker", 1_500),
            [11] = new(".NET TP Worker", 5_300),
            [12] = new(".NET Sockets", 7_000),
            [14] = new(".NET Tiered Com", 2_000),
        };

        RequestCostMeter.ByThreadName(before, after).Should().Equal(new ThreadCost(".NET Tiered Com", 2_000), new ThreadCost(".NET TP Worker", 800));
    }

    [Fact]
    public void A_thread_that_spun_2_ms_of_CPU_and_went_to_sleep_reads_the_2_ms_it_spun()
    {
        if (ProcessThreadClock.UnavailableReason(Environment.ProcessId) is not null)
        {
            return; // Linux only: the reader itself is what is tested here.
        }

        // A thread of this process spins 2 ms of its own CPU time between two blocked waits; read while it is blocked,
        // its schedstat time must have gained the spin, whatever else the machine is doing.
        using var clock = new ProcessThreadClock(Environment.ProcessId);
        using var ready = new ManualResetEventSlim();
        using var go = new ManualResetEventSlim();
        using var done = new ManualResetEventSlim();
        long? tid = null;
        long spun = 0;
        var thread = new Thread(() =>
        {
            tid = OsThread.CurrentId();
            _ = CpuClock.ThreadNanoseconds(); // compiled before the measured part
            ready.Set();
            go.Wait();
            var start = CpuClock.ThreadNanoseconds();
            while (CpuClock.ThreadNanoseconds() - start < 2_000_000)
            {
            }

            spun = CpuClock.ThreadNanoseconds() - start;
            done.Set();
            Thread.Sleep(Timeout.Infinite);
        }) { IsBackground = true, Name = "spin-probe" };
        thread.Start();
        ready.Wait(TestContext.Current.CancellationToken);
        Thread.Sleep(20);
        var before = clock.Read()[(int)tid!.Value].Nanoseconds;
        go.Set();
        done.Wait(TestContext.Current.CancellationToken);
        Thread.Sleep(20);
        var after = clock.Read()[(int)tid.Value];

        after.Name.Should().Be("spin-probe");
        (after.Nanoseconds - before).Should().BeInRange(spun, spun + 1_000_000, "schedstat counts the spin and little else: waking, signalling, going back to sleep (0.6 ms of it was seen beside other builds)");
    }
}
