using System.Runtime.InteropServices;

namespace PerfBudgets.Measuring;

/// <summary>
/// The operating system's id of the calling thread: the id runtime events carry
/// (<see cref="System.Diagnostics.Tracing.EventWrittenEventArgs.OSThreadId"/>, an EventPipe sample's thread), which is
/// not <see cref="Environment.CurrentManagedThreadId"/>.
/// </summary>
public static partial class OsThread
{
    /// <summary>The calling thread's OS id, or null on a platform this does not know.</summary>
    public static long? CurrentId()
    {
        if (OperatingSystem.IsLinux())
        {
            return gettid();
        }

        if (OperatingSystem.IsWindows())
        {
            return GetCurrentThreadId();
        }

        return null;
    }

    [LibraryImport("libc")]
    private static partial int gettid();

    [LibraryImport("kernel32")]
    private static partial uint GetCurrentThreadId();
}
