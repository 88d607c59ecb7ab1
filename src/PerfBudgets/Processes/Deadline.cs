using System.Diagnostics;

namespace PerfBudgets.Processes;

/// <summary>
/// When a wait on a child gives up. <see cref="After"/> is the wall clock's; a deadline may count time otherwise (the
/// counted runs' stretches while neighbours hold the machine), and every wait of <see cref="ChildProcess"/> takes one.
/// </summary>
internal abstract class Deadline
{
    /// <summary>A deadline of <paramref name="timeout"/>.</summary>
    protected Deadline(TimeSpan timeout)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(timeout, TimeSpan.Zero);
        Timeout = timeout;
    }

    /// <summary>The time a child is given.</summary>
    public TimeSpan Timeout { get; }

    /// <summary>
    /// How long a wait may block before it asks again: at most what is left of the time, and zero or less once it has
    /// passed. A deadline that counts otherwise than the wall clock answers less than it has left and is asked again.
    /// </summary>
    public abstract TimeSpan Remaining { get; }

    /// <summary>The wall clock's deadline, <paramref name="timeout"/> from now.</summary>
    public static Deadline After(TimeSpan timeout) => new WallClock(timeout);

    /// <summary>What the time was, for the message that says a child ran out of it: <c>600 s</c>.</summary>
    public override string ToString() => $"{Timeout.TotalSeconds:0.#} s";

    private sealed class WallClock(TimeSpan timeout) : Deadline(timeout)
    {
        private readonly long _started = Stopwatch.GetTimestamp();

        public override TimeSpan Remaining => Timeout - Stopwatch.GetElapsedTime(_started);
    }
}
