using System.Globalization;
using System.Runtime.InteropServices;

namespace PerfBudgets.Measuring;

/// <summary>
/// Raises the scheduling priority (the nice value) of the calling thread and of every thread of another process for
/// the length of a measurement, and puts each back when disposed: what BenchmarkDotNet does for its own process with
/// a high priority class, done per thread because on Linux a nice value belongs to a thread.
/// </summary>
/// <remarks>
/// <para>
/// A measurement that waits for a server to fall quiet between operations (<see cref="RequestCostMeter"/>) pays for
/// every slice a neighbour takes: beside two busy loops on 2 cores, a thread pool worker that spins briefly after
/// answering is preempted mid-spin again and again, and 1,500 requests took minutes instead of seconds. Raised, the
/// server's threads and the measuring thread run before the neighbours, so the wait is short again. What a request
/// costs on the CPU is the same either way; only the waiting changes.
/// </para>
/// <para>
/// A thread the server creates later inherits the nice value of the thread that created it, so raising every thread
/// there is at the start covers them. Raising needs <c>CAP_SYS_NICE</c> (root, as on this repository's CI machine);
/// without it nothing changes and <see cref="Note"/> says so: the measurement is still right, only slower on a busy
/// machine. Linux only; elsewhere <see cref="Note"/> says it was not raised.
/// </para>
/// </remarks>
internal sealed partial class SchedulingBoost : IDisposable
{
    /// <summary>The nice value the threads are raised to: well above a neighbour's 0 (about 9 times its CPU share under CFS).</summary>
    public const int RaisedNice = -10;

    private const int PrioProcess = 0;

    private readonly List<(int Tid, int Nice)> _raised = [];

    private SchedulingBoost()
    {
    }

    /// <summary>Why the threads were not raised (no permission, not Linux), or null when they were.</summary>
    public string? Note { get; private set; }

    /// <summary>
    /// Raises the calling thread and every thread of <paramref name="processId"/> to <see cref="RaisedNice"/>. Never
    /// throws for want of permission: the result's <see cref="Note"/> says what was not raised.
    /// </summary>
    public static SchedulingBoost Raise(int processId)
    {
        var boost = new SchedulingBoost();
        if (!OperatingSystem.IsLinux())
        {
            boost.Note = "the threads were not raised: per-thread nice values are Linux's";
            return boost;
        }

        var self = gettid();
        var threads = new List<int> { self };
        try
        {
            foreach (var directory in Directory.EnumerateDirectories($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/task"))
            {
                if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var tid))
                {
                    threads.Add(tid);
                }
            }
        }
        catch (DirectoryNotFoundException)
        {
            // The process ended: only the calling thread is raised, and the measurement will say what happened to it.
        }

        foreach (var tid in threads)
        {
            if (ReadNice(tid) is not { } nice || nice <= RaisedNice)
            {
                continue; // gone, or already at least as high
            }

            if (setpriority(PrioProcess, tid, RaisedNice) == 0)
            {
                boost._raised.Add((tid, nice));
            }
            else if (Marshal.GetLastPInvokeError() is 1 or 13)
            {
                boost.Note = "the threads were not raised (setting a negative nice value needs CAP_SYS_NICE): measured at normal priority, which on a busy machine only takes longer";
                break;
            }
        }

        if (boost.Note is not null)
        {
            boost.Dispose();
        }

        return boost;
    }

    /// <summary>Puts every raised thread back to the nice value it had; a thread that ended is skipped.</summary>
    public void Dispose()
    {
        foreach (var (tid, nice) in _raised)
        {
            _ = setpriority(PrioProcess, tid, nice);
        }

        _raised.Clear();
    }

    // The nice value is field 19 of /proc/TID/stat, counted after the name's closing parenthesis (a name may hold one).
    private static int? ReadNice(int tid)
    {
        string text;
        try
        {
            text = File.ReadAllText($"/proc/{tid.ToString(CultureInfo.InvariantCulture)}/stat");
        }
        catch (IOException)
        {
            return null;
        }

        var fields = text[(text.LastIndexOf(')') + 2)..].Split(' ');
        return fields.Length > 16 && int.TryParse(fields[16], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var nice) ? nice : null;
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial int setpriority(int which, int who, int prio);

    [LibraryImport("libc")]
    private static partial int gettid();
}
