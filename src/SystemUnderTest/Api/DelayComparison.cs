using System.Diagnostics;

namespace SystemUnderTest.Api;

/// <summary>What one in-process delay run measured.</summary>
/// <param name="Requests">Concurrent simulated requests.</param>
/// <param name="Delay">The wait each request performs.</param>
/// <param name="Elapsed">Wall time until every request finished.</param>
public readonly record struct DelayRunResult(int Requests, TimeSpan Delay, TimeSpan Elapsed)
{
    /// <summary>Requests completed per second of wall time.</summary>
    public double RequestsPerSecond => Requests / Elapsed.TotalSeconds;
}

/// <summary>
/// The same comparison as the delay API, without HTTP: N concurrent <see cref="Task.Delay(TimeSpan)"/> waits against
/// N <see cref="Task.Run(Action)"/> work items that each block a pool thread with <see cref="Thread.Sleep(TimeSpan)"/>.
/// </summary>
public static class DelayComparison
{
    /// <summary>Starts <paramref name="requests"/> awaited delays at once and waits for all of them.</summary>
    public static async Task<DelayRunResult> RunAsyncDelaysAsync(int requests, TimeSpan delay)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(requests);
        var started = Stopwatch.GetTimestamp();
        var waits = new Task[requests];
        for (var i = 0; i < requests; i++)
        {
            waits[i] = Task.Delay(delay);
        }

        await Task.WhenAll(waits);
        return new DelayRunResult(requests, delay, Stopwatch.GetElapsedTime(started));
    }

    /// <summary>Queues <paramref name="requests"/> blocking sleeps on the thread pool at once and waits for all of them.</summary>
    public static async Task<DelayRunResult> RunBlockingSleepsAsync(int requests, TimeSpan delay)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(requests);
        var started = Stopwatch.GetTimestamp();
        var waits = new Task[requests];
        for (var i = 0; i < requests; i++)
        {
            waits[i] = Task.Run(() => Thread.Sleep(delay));
        }

        await Task.WhenAll(waits);
        return new DelayRunResult(requests, delay, Stopwatch.GetElapsedTime(started));
    }
}
