using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// Time from a process's start to its first successful (2xx) answer: what a deployment waits for before the instance
/// takes traffic. Timed, so only comparable within one run: <see cref="CompareAsync"/> launches the subject and a
/// reference app alternately on the same machine and reports the ratio of their medians beside both figures.
/// </summary>
public static class StartupMeter
{
    // A refused connection comes back at once while the app is starting; this is the pause before the next try.
    private static readonly TimeSpan RetryPause = TimeSpan.FromMilliseconds(2);

    /// <summary>
    /// Launches <paramref name="subject"/> and <paramref name="reference"/> alternately, <paramref name="launches"/>
    /// times each after one unmeasured launch of each (the first start of a program pays for the disk cache and the
    /// client's own first request), each on a free loopback port given to the start function.
    /// </summary>
    /// <param name="subject">The start of the app measured and the path it must answer 2xx, for a port.</param>
    /// <param name="reference">The same for the reference app.</param>
    /// <param name="launches">Measured launches of each.</param>
    /// <param name="timeout">How long one launch may take to answer.</param>
    /// <param name="cancellationToken">Cancels the launches.</param>
    public static async Task<StartupMeasurement> CompareAsync(Func<int, (ProcessStartInfo Start, string Path)> subject,
        Func<int, (ProcessStartInfo Start, string Path)> reference, int launches, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(subject);
        ArgumentNullException.ThrowIfNull(reference);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(launches);
        using var client = new HttpClient(new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.Zero, UseProxy = false }) { Timeout = timeout };
        var subjectTimes = new List<StartupTime>(launches);
        var referenceTimes = new List<StartupTime>(launches);
        for (var i = 0; i <= launches; i++)
        {
            var r = await TimeToFirstSuccessAsync(client, reference, timeout, cancellationToken).ConfigureAwait(false);
            var s = await TimeToFirstSuccessAsync(client, subject, timeout, cancellationToken).ConfigureAwait(false);
            if (i > 0)
            {
                referenceTimes.Add(r);
                subjectTimes.Add(s);
            }
        }

        return new StartupMeasurement(subjectTimes, referenceTimes);
    }

    /// <summary>
    /// Starts the process on a free port, GETs its path until a 2xx answer, stops the process, and returns the time to
    /// that answer and the CPU time the process had spent by then (all its threads; waiting for a core is not in it).
    /// </summary>
    /// <exception cref="TimeoutException">No 2xx answer within <paramref name="timeout"/>, or the process exited first.</exception>
    public static Task<StartupTime> TimeToFirstSuccessAsync(HttpClient client, Func<int, (ProcessStartInfo Start, string Path)> launch,
        TimeSpan timeout, CancellationToken cancellationToken) =>
        TimeToFirstSuccessAsync(client, launch, timeout, attach: null, cancellationToken);

    /// <summary>
    /// As <see cref="TimeToFirstSuccessAsync(HttpClient, Func{int, ValueTuple{ProcessStartInfo, string}}, TimeSpan, CancellationToken)"/>,
    /// with an observer attached to the process as soon as it has started (a diagnostics session, say); what
    /// <paramref name="attach"/> returns is disposed after the first 2xx answer and before the process is stopped.
    /// </summary>
    /// <exception cref="TimeoutException">No 2xx answer within <paramref name="timeout"/>, or the process exited first.</exception>
    public static async Task<StartupTime> TimeToFirstSuccessAsync(HttpClient client, Func<int, (ProcessStartInfo Start, string Path)> launch,
        TimeSpan timeout, Func<Process, CancellationToken, Task<IAsyncDisposable>>? attach, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(launch);
        var port = FreeLoopbackPort();
        var (start, path) = launch(port);
        var uri = new Uri($"http://127.0.0.1:{port}{path}");
        var clock = Stopwatch.StartNew();
        // Through the package's one way to start a child: its output and error drained, its tree killed at the end.
        using var child = ChildProcess.Start(start, $"the launch of {start.FileName} {string.Join(' ', start.ArgumentList)}");
        var process = child.Process;
        try
        {
            // A launch that exits at once can be gone before its CPU clock is found; the loop then says it exited.
            Func<long>? cpu = null;
            try
            {
                cpu = CpuClock.ForProcess(process.Id);
            }
            catch (InvalidOperationException) when (process.HasExited)
            {
            }

            await using var observer = attach is null ? null : await attach(process, cancellationToken).ConfigureAwait(false);
            while (true)
            {
                cancellationToken.ThrowIfCancellationRequested();
                if (process.HasExited || cpu is null)
                {
                    // The error stream's last lines arrive after the exit: its end is awaited before it is quoted.
                    var ended = child.WaitForExit(TimeSpan.FromSeconds(5));
                    throw new TimeoutException($"{child.Name} exited ({ended.ExitCode}) before answering {uri}; its standard error ended: {ended.ErrorTail}");
                }

                if (clock.Elapsed > timeout)
                {
                    throw new TimeoutException($"{uri} did not answer 2xx within {timeout.TotalSeconds} s of its process's start.");
                }

                try
                {
                    using var response = await client.GetAsync(uri, cancellationToken).ConfigureAwait(false);
                    if (response.IsSuccessStatusCode)
                    {
                        var wall = clock.Elapsed;
                        return new StartupTime(wall, TimeSpan.FromTicks(cpu() / 100), ProcessMemory.WorkingSetBytes(process.Id) ?? 0);
                    }
                }
                catch (HttpRequestException e) when (e.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionRefused })
                {
                    // Not listening yet.
                }

                await Task.Delay(RetryPause, cancellationToken).ConfigureAwait(false);
            }
        }
        finally
        {
            // At once, not after the grace a disposed child gets: the app would serve on until killed. Bounded.
            child.Kill();
        }
    }

    // A port nothing listens on now: bound and released. Another process could take it before the app does; on
    // loopback in a test run that has not been seen, and the launch would fail loudly, not measure something else.
    private static int FreeLoopbackPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
