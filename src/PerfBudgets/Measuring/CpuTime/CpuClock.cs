using System.Diagnostics;
using System.Runtime.InteropServices;

namespace PerfBudgets.Measuring;

/// <summary>
/// CPU-time clocks: the calling thread's and a whole process's, in nanoseconds, user and kernel time together.
/// CPU time advances only while the code runs on a core, so time spent waiting for a core on a busy machine is not
/// counted, which is what makes it a better base than the wall clock for a gate on a shared CI runner.
/// </summary>
/// <remarks>
/// Linux and macOS: <c>clock_gettime</c> with the thread's or a process's CPU clock (<c>clock_getcpuclockid</c> for
/// another process), nanosecond resolution. Windows: <c>GetThreadTimes</c> (100 ns units, updated at the scheduler
/// tick) and <see cref="Process.TotalProcessorTime"/>. Elsewhere the thread clock falls back to the process clock
/// (<see cref="ThreadClockSource"/> says so, and every measurement carries that note).
/// </remarks>
public static partial class CpuClock
{
    private const int ClockProcessCpuTimeId = 2;
    private static readonly int ClockThreadCpuTimeId = OperatingSystem.IsMacOS() ? 16 : 3;

    /// <summary>True when <see cref="ThreadNanoseconds"/> reads a per-thread clock (not the process fallback).</summary>
    public static bool HasThreadClock { get; } = OperatingSystem.IsLinux() || OperatingSystem.IsMacOS() || OperatingSystem.IsWindows();

    /// <summary>What <see cref="ThreadNanoseconds"/> reads, for the record of a measurement.</summary>
    public static string ThreadClockSource { get; } =
        OperatingSystem.IsLinux() || OperatingSystem.IsMacOS() ? "thread CPU clock (clock_gettime CLOCK_THREAD_CPUTIME_ID)"
        : OperatingSystem.IsWindows() ? "thread CPU clock (GetThreadTimes, scheduler-tick resolution)"
        : "process CPU time (no per-thread CPU clock on this OS: other threads' work is counted too)";

    /// <summary>CPU time the calling thread has used, in nanoseconds.</summary>
    public static long ThreadNanoseconds()
    {
        if (OperatingSystem.IsLinux() || OperatingSystem.IsMacOS())
        {
            return ClockNanoseconds(ClockThreadCpuTimeId);
        }

        if (OperatingSystem.IsWindows())
        {
            return GetThreadTimes(GetCurrentThread(), out _, out _, out var kernel, out var user)
                ? (kernel + user) * 100
                : throw new InvalidOperationException($"GetThreadTimes failed: {Marshal.GetLastPInvokeErrorMessage()}");
        }

        return CurrentProcessNanoseconds();
    }

    /// <summary>CPU time this process has used on all its threads, in nanoseconds.</summary>
    public static long CurrentProcessNanoseconds() =>
        OperatingSystem.IsLinux() || OperatingSystem.IsMacOS()
            ? ClockNanoseconds(ClockProcessCpuTimeId)
            : Process.GetCurrentProcess().TotalProcessorTime.Ticks * 100;

    /// <summary>
    /// A reader of another process's CPU time. On Linux it reads that process's CPU clock (nanoseconds); elsewhere it
    /// falls back to <see cref="Process.TotalProcessorTime"/> (on Linux /proc would tick only every 10 ms).
    /// </summary>
    public static Func<long> ForProcess(int processId)
    {
        if (OperatingSystem.IsLinux())
        {
            var error = clock_getcpuclockid(processId, out var clockId);
            if (error != 0)
            {
                throw new InvalidOperationException($"clock_getcpuclockid({processId}) failed with error {error}; is the process running?");
            }

            return () => ClockNanoseconds(clockId);
        }

        var process = Process.GetProcessById(processId);
        return () =>
        {
            process.Refresh();
            return process.TotalProcessorTime.Ticks * 100;
        };
    }

    private static long ClockNanoseconds(int clockId)
    {
        if (clock_gettime(clockId, out var time) != 0)
        {
            throw new InvalidOperationException($"clock_gettime({clockId}) failed: {Marshal.GetLastPInvokeErrorMessage()}");
        }

        return (time.Seconds * 1_000_000_000L) + time.Nanoseconds;
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial int clock_gettime(int clockId, out TimeSpec time);

    [LibraryImport("libc")]
    private static partial int clock_getcpuclockid(int processId, out int clockId);

    [LibraryImport("kernel32", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetThreadTimes(IntPtr thread, out long creation, out long exit, out long kernel, out long user);

    [LibraryImport("kernel32")]
    private static partial IntPtr GetCurrentThread();
}
