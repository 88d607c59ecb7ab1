using System.Globalization;
using Microsoft.Win32.SafeHandles;

namespace PerfBudgets.Measuring;

/// <summary>
/// Reads another process's threads on Linux: the on-CPU time of each (nanoseconds, the first field of
/// <c>/proc/PID/task/TID/schedstat</c>), its name (<c>comm</c>), and whether any of them is running or waiting for a
/// core (state <c>R</c> in <c>stat</c>).
/// </summary>
/// <remarks>
/// The on-CPU time of a thread that is not running is exact to the nanosecond: the kernel adds each slice when the
/// thread leaves the core. A thread that is running is behind by up to its current slice, so a reading is taken only
/// once no thread of the process is running or runnable (<see cref="AnyThreadRunnable"/>). Waiting for a core adds
/// nothing, which is why a busy neighbour does not inflate what a request costs. The files of a thread are opened
/// once and re-read from offset 0, so a reading of some twenty threads costs tens of microseconds.
/// </remarks>
internal sealed class ProcessThreadClock : IDisposable
{
    private readonly string _tasks;
    private readonly Dictionary<int, ThreadFiles> _threads = [];
    private readonly byte[] _buffer = new byte[512];

    /// <summary>Prepares to read the threads of <paramref name="processId"/>.</summary>
    /// <exception cref="PlatformNotSupportedException">Not Linux, or the kernel has no per-thread schedstat.</exception>
    public ProcessThreadClock(int processId)
    {
        _tasks = $"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/task";
        if (UnavailableReason(processId) is { } reason)
        {
            throw new PlatformNotSupportedException(reason);
        }
    }

    /// <summary>Why a process's threads cannot be read here (not Linux, no schedstat), or null when they can.</summary>
    public static string? UnavailableReason(int processId)
    {
        if (!OperatingSystem.IsLinux())
        {
            return "per-thread on-CPU time is read from /proc/PID/task/TID/schedstat, which only Linux has";
        }

        var self = $"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/task/{processId.ToString(CultureInfo.InvariantCulture)}/schedstat";
        return File.Exists(self) ? null : $"{self} does not exist (a kernel without CONFIG_SCHEDSTATS, or the process ended)";
    }

    /// <summary>
    /// The on-CPU nanoseconds of every live thread, by thread id, with its name. A thread that ended since the last
    /// reading is absent.
    /// </summary>
    public IReadOnlyDictionary<int, ThreadTime> Read()
    {
        var result = new Dictionary<int, ThreadTime>(_threads.Count + 4);
        foreach (var (tid, files) in Threads())
        {
            var length = ReadAt(files.SchedStat);
            if (length <= 0)
            {
                continue;
            }

            var text = _buffer.AsSpan(0, length);
            var space = text.IndexOf((byte)' ');
            if (space > 0 && long.TryParse(text[..space], NumberStyles.None, CultureInfo.InvariantCulture, out var nanoseconds))
            {
                result[tid] = new ThreadTime(files.Name, nanoseconds);
            }
        }

        return result;
    }

    /// <summary>True when a thread of the process is running or waiting for a core (state R).</summary>
    public bool AnyThreadRunnable()
    {
        foreach (var (_, files) in Threads())
        {
            var length = ReadAt(files.Stat);
            if (length <= 0)
            {
                continue;
            }

            // "TID (name) S ...": the state follows the last ')' (a name may hold one).
            var text = _buffer.AsSpan(0, length);
            var close = text.LastIndexOf((byte)')');
            if (close >= 0 && close + 2 < text.Length && text[close + 2] == (byte)'R')
            {
                return true;
            }
        }

        return false;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        foreach (var files in _threads.Values)
        {
            files.Dispose();
        }

        _threads.Clear();
    }

    private List<(int Tid, ThreadFiles Files)> Threads()
    {
        var live = new List<(int, ThreadFiles)>(_threads.Count + 4);
        IEnumerable<string> directories;
        try
        {
            directories = Directory.EnumerateDirectories(_tasks).ToList();
        }
        catch (DirectoryNotFoundException)
        {
            return live; // the process ended
        }

        var seen = new HashSet<int>();
        foreach (var directory in directories)
        {
            if (!int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var tid))
            {
                continue;
            }

            seen.Add(tid);
            if (!_threads.TryGetValue(tid, out var files))
            {
                try
                {
                    files = ThreadFiles.Open(directory);
                }
                catch (IOException)
                {
                    continue; // the thread ended meanwhile
                }
                catch (UnauthorizedAccessException)
                {
                    continue;
                }

                _threads[tid] = files;
            }

            live.Add((tid, files));
        }

        foreach (var gone in _threads.Keys.Where(tid => !seen.Contains(tid)).ToList())
        {
            _threads[gone].Dispose();
            _threads.Remove(gone);
        }

        return live;
    }

    private int ReadAt(SafeFileHandle handle)
    {
        try
        {
            return RandomAccess.Read(handle, _buffer, 0);
        }
        catch (IOException)
        {
            return 0; // the thread ended between listing and reading (ESRCH)
        }
    }

    /// <summary>One thread's on-CPU time.</summary>
    /// <param name="Name">The thread's name (<c>comm</c>, at most 15 characters, e.g. <c>.NET TP Worker</c>).</param>
    /// <param name="Nanoseconds">Its on-CPU time since it started.</param>
    public readonly record struct ThreadTime(string Name, long Nanoseconds);

    private sealed class ThreadFiles(SafeFileHandle stat, SafeFileHandle schedStat, string name) : IDisposable
    {
        public SafeFileHandle Stat { get; } = stat;

        public SafeFileHandle SchedStat { get; } = schedStat;

        public string Name { get; } = name;

        public static ThreadFiles Open(string directory)
        {
            var name = File.ReadAllText(Path.Combine(directory, "comm")).TrimEnd('\n');
            var stat = File.OpenHandle(Path.Combine(directory, "stat"));
            try
            {
                return new ThreadFiles(stat, File.OpenHandle(Path.Combine(directory, "schedstat")), name);
            }
            catch
            {
                stat.Dispose();
                throw;
            }
        }

        public void Dispose()
        {
            Stat.Dispose();
            SchedStat.Dispose();
        }
    }
}
