using System.Diagnostics;

namespace PerfBudgets.Processes;

/// <summary>
/// An exclusive lock between processes on a file (<c>flock</c> on Unix, a share-none handle on Windows), held by the
/// stream it answers until that is disposed. The operating system releases it when the holder exits, even if it
/// crashes, so a killed run never blocks the next.
/// </summary>
/// <remarks>
/// The file is never deleted on release: a waiter may already hold a handle to it, and a holder that deleted it would
/// let the next opener create a new file and lock that one while the waiter locks the old one, both "holding" the lock.
/// </remarks>
internal static class FileLock
{
    private static readonly TimeSpan DefaultPoll = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// Waits until no other holder has <paramref name="path"/> (its folder is created), polling every
    /// <paramref name="poll"/> (100 ms by default), and answers the held stream and how long it waited; null when
    /// another holder kept it past <paramref name="timeout"/>.
    /// </summary>
    public static (FileStream Held, TimeSpan Waited)? TryAcquire(string path, TimeSpan timeout, TimeSpan? poll = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        var started = Stopwatch.GetTimestamp();
        while (true)
        {
            try
            {
                return (new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, 1), Stopwatch.GetElapsedTime(started));
            }
            catch (IOException) when (Stopwatch.GetElapsedTime(started) < timeout)
            {
                Thread.Sleep(poll ?? DefaultPoll);
            }
            catch (IOException)
            {
                return null;
            }
        }
    }
}
