namespace PerfBudgets.Measuring;

/// <summary>What one request cost the server: its index in the measured run, its on-CPU time, and which threads spent it.</summary>
/// <param name="Index">0 for the first measured request (after the warm-up).</param>
/// <param name="Nanoseconds">The server process's on-CPU time from before the request was sent until it was quiet again.</param>
/// <param name="Threads">That time by thread name (threads of one name summed), largest first.</param>
public sealed record RequestCost(int Index, long Nanoseconds, IReadOnlyList<ThreadCost> Threads)
{
    // The runtime's own service threads, by the names .NET gives them on Linux (cut to 15 characters): the server
    // collector's threads, the background collector's, and the tiered JIT's background compiler.
    private static readonly string[] RuntimeServiceThreads = [".NET Server GC", ".NET BGC", ".NET Tiered Com"];

    /// <summary>The cost in milliseconds.</summary>
    public double Milliseconds => Nanoseconds / 1e6;

    /// <summary>
    /// The part of <see cref="Nanoseconds"/> that the runtime's own service threads spent during the request: the
    /// server or background garbage collector's threads and the tiered JIT's background compiler. They work on a
    /// cadence of their own (a collection when the generation-0 budget, sized from the machine's cache, runs out; a
    /// compilation when a method's call count is reached), not on the request's path.
    /// </summary>
    public long RuntimeServiceNanoseconds => Threads.Where(t => IsRuntimeService(t.ThreadName)).Sum(t => t.Nanoseconds);

    /// <summary>
    /// The request path's cost: <see cref="Nanoseconds"/> less <see cref="RuntimeServiceNanoseconds"/>. With the
    /// workstation collector a collection runs on the thread that allocated, and stays in.
    /// </summary>
    public long RequestPathNanoseconds => Math.Max(0, Nanoseconds - RuntimeServiceNanoseconds);

    /// <summary>The threads of <see cref="Threads"/> on the request's path: all but the runtime's own service threads.</summary>
    public IReadOnlyList<ThreadCost> RequestPathThreads => [.. Threads.Where(t => !IsRuntimeService(t.ThreadName))];

    /// <summary>Whether <paramref name="threadName"/> is one of the runtime's own service threads (<see cref="RuntimeServiceNanoseconds"/>).</summary>
    internal static bool IsRuntimeService(string threadName) =>
        RuntimeServiceThreads.Any(prefix => threadName.StartsWith(prefix, StringComparison.Ordinal));
}
