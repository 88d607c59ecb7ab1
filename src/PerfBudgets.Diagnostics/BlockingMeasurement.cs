using System.Globalization;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// Where pool threads of a server waited while they ran its work (<see cref="BlockingMeter"/>): the call that blocked
/// (<c>System.Threading.Thread.Sleep</c>, a contended <c>Monitor.Enter</c>, <c>Task.Wait</c>) and the first method
/// outside the threading library that called it.
/// </summary>
/// <param name="Caller">The first method outside <c>System.Threading</c> and the async machinery that led to the wait.</param>
/// <param name="Wait">The blocking call (the outermost frame of the wait primitive).</param>
/// <param name="Milliseconds">Blocked thread-milliseconds sampled at this site over the window.</param>
/// <param name="Samples">How many stack samples found a thread waiting here.</param>
public sealed record BlockingSite(string Caller, string Wait, double Milliseconds, int Samples)
{
    /// <inheritdoc />
    public override string ToString() =>
        string.Create(CultureInfo.InvariantCulture, $"{Caller} → {Wait} {Milliseconds:N1} ms ({Samples} samples)");
}

/// <summary>
/// What <see cref="BlockingMeter"/> saw of a server while a workload drove it: how long its pool threads were blocked
/// while running work items, and how often they found a lock taken.
/// </summary>
/// <param name="Operations">Operations the workload completed in the window (requests, frames).</param>
/// <param name="Window">How long the session ran.</param>
/// <param name="BlockedMilliseconds">Thread-milliseconds pool threads spent blocked inside a work item (sampled).</param>
/// <param name="Contentions">Lock contentions (the runtime's ContentionStart events) inside work items.</param>
/// <param name="Samples">Stack samples of pool threads running a work item (blocked or not).</param>
/// <param name="BlockedSamples">Of those, samples that found the thread blocked.</param>
/// <param name="Sites">The blocking sites, most blocked first.</param>
/// <param name="ContentionSites">Where the contended locks were taken, most contended first (caller and count).</param>
public sealed record BlockingMeasurement(
    long Operations,
    TimeSpan Window,
    double BlockedMilliseconds,
    long Contentions,
    int Samples,
    int BlockedSamples,
    IReadOnlyList<BlockingSite> Sites,
    IReadOnlyList<(string Caller, int Count)> ContentionSites)
{
    /// <summary>
    /// Bytes the process allocated while recorded, from the runtime's AllocationTick events (one each time a thread
    /// has allocated about 100 KB, with the amount since its last), so low by less than 100 KB per allocating thread;
    /// null where the recording did not ask for them (<see cref="BlockingMeter.MeasureAsync"/> does not).
    /// </summary>
    public long? AllocatedBytes { get; init; }

    /// <summary>
    /// Samples of pool threads inside a work item waiting, outside managed code, to enter a lock the platform's own code
    /// took (the timer queue's, the socket engine's, Kestrel's), not counted as blocked: such a lock is held for
    /// nanoseconds, and its waiters wait long only when the machine descheduled the holder. Its contentions are counted.
    /// </summary>
    public int PlatformLockSamples { get; init; }

    /// <summary>Blocked thread-milliseconds per operation; with no operation completed, the whole blocked time.</summary>
    public double BlockedMillisecondsPerOperation => BlockedMilliseconds / Math.Max(1, Operations);

    /// <summary>Lock contentions per operation; with no operation completed, every contention.</summary>
    public double ContentionsPerOperation => (double)Contentions / Math.Max(1, Operations);

    /// <summary>One line for a budget's detail: the figures and the top blocking sites.</summary>
    public string Describe(string operation, int sites = 3)
    {
        var text = string.Create(CultureInfo.InvariantCulture,
            $"{Operations:N0} {(Operations == 1 ? operation : operation + "s")} in {Window.TotalSeconds:N1} s; blocked {BlockedMilliseconds:N1} thread-ms ({BlockedSamples} of {Samples} work-item samples{(PlatformLockSamples > 0 ? $", {PlatformLockSamples} more entering the platform's locks, not counted" : "")}), {Contentions:N0} lock contentions");
        if (Sites.Count > 0)
        {
            text += "; blocked at: " + string.Join(", ", Sites.Take(sites));
        }

        if (ContentionSites.Count > 0)
        {
            text += "; contended in: " + string.Join(", ", ContentionSites.Take(sites).Select(s => string.Create(CultureInfo.InvariantCulture, $"{s.Caller} ×{s.Count:N0}")));
        }

        return text;
    }
}
