using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace PerfBudgets.Measuring;

/// <summary>
/// Measures what each request costs a server in its own process: its on-CPU time, summed over all its threads, from
/// just before the request is sent until the server is quiet again after answering. One request at a time, so every
/// request's cost is its own, and a tail (one slow request in fifty) shows in the high quantiles instead of being
/// averaged into a round.
/// </summary>
/// <remarks>
/// <para>
/// CPU time, not latency: waiting for a core on a busy machine adds nothing to it, so a neighbour cannot make a
/// request look expensive, while work added on the request path (a spin, a slower serializer) adds to every request
/// that does it. The total is the process's CPU clock (<see cref="CpuClock.ForProcess"/>, nanoseconds, threads that
/// ended included); the breakdown by thread name comes from <see cref="ProcessThreadClock"/>, for attribution.
/// </para>
/// <para>
/// Quiet means what <see cref="CallgrindServer"/> waits for, over shorter windows: no thread of the server running or
/// waiting for a core, and its CPU clock still (under 20 µs over 200 µs), twice in a row. A reading taken while a thread
/// still had the end of a request to run would move that end into the next request. Work the server does by itself
/// (a timer, a collection, the JIT compiling a method again) lands in whichever request it happens during: a rare
/// event, seen in the maximum but not in a high quantile, and named by the thread that did it.
/// </para>
/// </remarks>
public static partial class RequestCostMeter
{
    // Quiet: the CPU clock advanced less than 20 µs over a 200 µs sleep, and no thread was running or runnable at its
    // end, twice in a row. (A millisecond's sleep, as CallgrindServer waits, cost 2.8 ms per request here: a pool thread
    // spins for a while after answering, so the first window was seldom quiet.)
    private const long QuietClockNanoseconds = 20_000;
    private const uint QuietWindowMicroseconds = 200;

    /// <summary>
    /// Why the server <paramref name="processId"/>'s threads cannot be read here (not Linux, a kernel without
    /// schedstat), or null when <see cref="Measure"/> can run; report the budget as not measured with it.
    /// </summary>
    public static string? UnavailableReason(int processId) => ProcessThreadClock.UnavailableReason(processId);

    /// <summary>
    /// Sends <paramref name="warmUp"/> requests with <paramref name="sendOne"/> unmeasured (the JIT's compilations,
    /// lazy initialisation), then <paramref name="requests"/> measured ones, each once the server
    /// <paramref name="processId"/> is quiet. The server's threads and the calling thread run at a raised priority
    /// meanwhile (<see cref="SchedulingBoost"/>), so a busy neighbour does not stretch the waits. Once the measured
    /// requests have taken <paramref name="timeLimit"/> (null: no limit), the run stops with those measured so far (at
    /// least one), and its <see cref="RequestCostMeasurement.Note"/> says how many of <paramref name="requests"/> that was.
    /// </summary>
    /// <exception cref="PlatformNotSupportedException">The server's threads cannot be read here (<see cref="UnavailableReason"/>).</exception>
    public static RequestCostMeasurement Measure(string workload, int processId, Action sendOne, int warmUp, int requests, TimeSpan? timeLimit = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(workload);
        ArgumentNullException.ThrowIfNull(sendOne);
        ArgumentOutOfRangeException.ThrowIfNegative(warmUp);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(requests);
        if (timeLimit is { } positive)
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(positive, TimeSpan.Zero, nameof(timeLimit));
        }

        using var threads = new ProcessThreadClock(processId);
        using var boost = SchedulingBoost.Raise(processId);
        var clock = CpuClock.ForProcess(processId);
        var neverQuiet = 0;
        for (var i = 0; i < warmUp; i++)
        {
            neverQuiet += WaitUntilQuiet(threads, clock) ? 0 : 1;
            sendOne();
        }

        neverQuiet += WaitUntilQuiet(threads, clock) ? 0 : 1;
        var costs = new List<RequestCost>(requests);
        var beforeThreads = threads.Read();
        var before = clock();
        var started = Stopwatch.GetTimestamp();
        for (var i = 0; i < requests; i++)
        {
            if (i > 0 && timeLimit is { } limit && Stopwatch.GetElapsedTime(started) >= limit)
            {
                break;
            }

            sendOne();
            neverQuiet += WaitUntilQuiet(threads, clock) ? 0 : 1;
            var afterThreads = threads.Read();
            var after = clock();
            costs.Add(new RequestCost(i, after - before, ByThreadName(beforeThreads, afterThreads)));
            (before, beforeThreads) = (after, afterThreads);
        }

        var notes = new List<string>(3);
        if (costs.Count < requests)
        {
            notes.Add(string.Create(CultureInfo.InvariantCulture, $"stopped at the time limit of {timeLimit!.Value.TotalSeconds:0} s after {costs.Count:N0} of {requests:N0} requests"));
        }

        if (neverQuiet > 0)
        {
            notes.Add(string.Create(CultureInfo.InvariantCulture, $"the server was not quiet within 10 s {neverQuiet} times; those readings hold more than one request"));
        }

        if (boost.Note is { } notRaised)
        {
            notes.Add(notRaised);
        }

        return new RequestCostMeasurement(workload, costs, notes.Count == 0 ? null : string.Join("; ", notes));
    }

    /// <summary>
    /// The on-CPU time each thread name gained from <paramref name="before"/> to <paramref name="after"/> (a thread
    /// that started in between counts from zero), largest first, names with nothing left out.
    /// </summary>
    internal static IReadOnlyList<ThreadCost> ByThreadName(IReadOnlyDictionary<int, ProcessThreadClock.ThreadTime> before, IReadOnlyDictionary<int, ProcessThreadClock.ThreadTime> after)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        Dictionary<string, long>? byName = null;
        foreach (var (tid, time) in after)
        {
            var gained = time.Nanoseconds - (before.TryGetValue(tid, out var earlier) ? earlier.Nanoseconds : 0);
            if (gained > 0)
            {
                byName ??= new Dictionary<string, long>(StringComparer.Ordinal);
                byName[time.Name] = byName.GetValueOrDefault(time.Name) + gained;
            }
        }

        return byName is null ? [] : byName.Select(p => new ThreadCost(p.Key, p.Value)).OrderByDescending(c => c.Nanoseconds).ThenBy(c => c.ThreadName, StringComparer.Ordinal).ToList();
    }

    // False when the server did not go quiet within 10 s (a thread spinning by itself): the reading is taken anyway.
    private static bool WaitUntilQuiet(ProcessThreadClock threads, Func<long> clock)
    {
        var deadline = Stopwatch.GetTimestamp() + (Stopwatch.Frequency * 10);
        var quiet = 0;
        while (Stopwatch.GetTimestamp() < deadline)
        {
            var before = clock();
            _ = usleep(QuietWindowMicroseconds);
            quiet = clock() - before < QuietClockNanoseconds && !threads.AnyThreadRunnable() ? quiet + 1 : 0;
            if (quiet == 2)
            {
                return true;
            }
        }

        return false;
    }

    // Thread.Sleep rounds up to a millisecond; the meter runs only on Linux (ProcessThreadClock), which has usleep.
    [LibraryImport("libc")]
    private static partial int usleep(uint microseconds);
}
