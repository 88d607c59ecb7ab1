namespace PerfBudgets.Measuring;

/// <summary>What one request cost the server: its index in the measured run, its on-CPU time, and which threads spent it.</summary>
/// <param name="Index">0 for the first measured request (after the warm-up).</param>
/// <param name="Nanoseconds">The server process's on-CPU time from before the request was sent until it was quiet again.</param>
/// <param name="Threads">That time by thread name (threads of one name summed), largest first.</param>
public sealed record RequestCost(int Index, long Nanoseconds, IReadOnlyList<ThreadCost> Threads)
{
    /// <summary>The cost in milliseconds.</summary>
    public double Milliseconds => Nanoseconds / 1e6;
}
