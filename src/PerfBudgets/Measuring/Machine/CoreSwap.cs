using System.ComponentModel;
using System.Diagnostics;

namespace PerfBudgets.Measuring;

/// <summary>
/// Two processes measured side by side, each kept on a core of its own and swapped every round: in a duet each process
/// otherwise stays where the scheduler first put it for the whole run, and a core shared with a neighbour (its cache
/// thrashed by another job's context switches) charged one side up to twice the CPU time per operation of the same
/// build on the other. Swapping turns that into a difference between neighbouring rounds, which the pairs cancel.
/// </summary>
/// <remarks>
/// The affinity set is the processes' main thread's on Linux (<c>sched_setaffinity</c> of the process id), which is the
/// thread a <see cref="ServedWorkload"/> runs its operations on. Where affinity cannot be set (macOS, one core, a
/// cpuset of one), nothing is pinned and the rounds run as before.
/// </remarks>
internal sealed class CoreSwap
{
    private readonly nint _first;
    private readonly nint _second;

    private CoreSwap(nint first, nint second)
    {
        _first = first;
        _second = second;
    }

    /// <summary>The two lowest cores this process may run on, or null where there are not two or affinity is not supported.</summary>
    public static CoreSwap? TryCreate()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsWindows())
        {
            return null;
        }

        try
        {
            using var self = Process.GetCurrentProcess();
            var allowed = (long)self.ProcessorAffinity;
            var first = allowed & -allowed;
            var rest = allowed & ~first;
            var second = rest & -rest;
            return first == 0 || second == 0 ? null : new CoreSwap((nint)first, (nint)second);
        }
        catch (Exception e) when (e is PlatformNotSupportedException or Win32Exception or InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary>Puts <paramref name="a"/> and <paramref name="b"/> on the two cores, swapped on odd rounds; false if either could not be placed.</summary>
    public bool Place(Process a, Process b, int round)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsWindows())
        {
            return false;
        }

        try
        {
            a.ProcessorAffinity = round % 2 == 0 ? _first : _second;
            b.ProcessorAffinity = round % 2 == 0 ? _second : _first;
            return true;
        }
        catch (Exception e) when (e is PlatformNotSupportedException or Win32Exception or InvalidOperationException)
        {
            return false;
        }
    }
}
