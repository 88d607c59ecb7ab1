using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

public sealed class ProcessMemoryTests
{
    private const string Status = "Name:\tdotnet\nVmPeak:\t 3000000 kB\nVmHWM:\t  123456 kB\nVmRSS:\t  100000 kB\nThreads:\t20\n";

    [Fact]
    public void The_peak_resident_set_is_read_in_bytes_from_its_kB_line()
    {
        ProcessMemory.ParseStatusBytes(Status, "VmHWM:").Should().Be(123_456L * 1024);
        ProcessMemory.ParseStatusBytes(Status, "VmRSS:").Should().Be(100_000L * 1024);
    }

    [Fact]
    public void A_missing_or_malformed_line_gives_null()
    {
        ProcessMemory.ParseStatusBytes(Status, "VmSwap:").Should().BeNull();
        ProcessMemory.ParseStatusBytes("VmHWM:\tlots\n", "VmHWM:").Should().BeNull();
    }

    [Fact]
    public void This_process_has_a_peak_at_least_its_current_resident_set_on_linux()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        // Both from one read of the status file: the kernel reports VmHWM as at least the VmRSS of the same read, but
        // across two reads the resident set can shrink (pages given back) without the stored high-water mark moving,
        // so a peak read after a larger current set once read 4 KiB below it.
        var status = File.ReadAllText($"/proc/{Environment.ProcessId}/status");
        var now = ProcessMemory.ParseStatusBytes(status, "VmRSS:");
        var peak = ProcessMemory.ParseStatusBytes(status, "VmHWM:");

        peak.Should().BeGreaterThanOrEqualTo(now!.Value).And.BeGreaterThan(1_000_000);
        ProcessMemory.PeakWorkingSetBytes(Environment.ProcessId).Should().BeGreaterThan(1_000_000);
        ProcessMemory.WorkingSetBytes(Environment.ProcessId).Should().BeGreaterThan(1_000_000);
    }

    [Fact]
    public void The_collectors_mode_is_read_from_the_processs_gc_threads_on_linux()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        var threads = ProcessMemory.ServerGcThreads(Environment.ProcessId);

        if (System.Runtime.GCSettings.IsServerGC)
        {
            threads.Should().BeGreaterThan(0, "server GC runs a thread per heap");
        }
        else
        {
            threads.Should().Be(0, "workstation GC has no server GC threads");
        }
    }
}
