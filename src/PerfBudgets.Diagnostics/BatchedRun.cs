using System.Diagnostics;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// Runs operations for a while in growing batches, for the profilers that watch a run rather than count it: batches
/// double until each takes about 20 ms, so the clock is read often enough to stop on time without a read per operation.
/// </summary>
internal static class BatchedRun
{
    /// <summary>Runs <paramref name="runOperations"/> in batches until <paramref name="duration"/> has passed; returns the operations run.</summary>
    public static long For(TimeSpan duration, Action<int> runOperations)
    {
        var started = Stopwatch.GetTimestamp();
        long operations = 0;
        var batch = 1;
        while (Stopwatch.GetElapsedTime(started) < duration)
        {
            var batchStarted = Stopwatch.GetTimestamp();
            runOperations(batch);
            operations += batch;
            if (Stopwatch.GetElapsedTime(batchStarted) < TimeSpan.FromMilliseconds(20))
            {
                batch = (int)Math.Min(batch * 2L, 1 << 24);
            }
        }

        return operations;
    }

    /// <summary>
    /// Runs <paramref name="first"/> and <paramref name="second"/> in turns, the same batch each, for about
    /// <paramref name="duration"/> in all; each goes first in every other turn, so neither always follows the other
    /// onto a warm core. Returns the operations each ran.
    /// </summary>
    public static long TakingTurns(TimeSpan duration, Action<int> first, Action<int> second)
    {
        var secondFirst = false;
        return For(duration, count =>
        {
            (secondFirst ? second : first)(count);
            (secondFirst ? first : second)(count);
            secondFirst = !secondFirst;
        });
    }
}
