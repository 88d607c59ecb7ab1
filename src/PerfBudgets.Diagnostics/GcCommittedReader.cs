using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// The bytes a process's garbage collector has committed from the OS, read over EventPipe from the runtime's
/// <c>System.Runtime</c> counters (<c>gc-committed</c>, which the runtime publishes in megabytes: 10^6 bytes).
/// </summary>
public static class GcCommittedReader
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Opens a counter session on <paramref name="processId"/> with a one-second interval and returns the first
    /// <c>gc-committed</c> value, in bytes (about one to two seconds).
    /// </summary>
    public static Task<long> ReadAsync(int processId, CancellationToken cancellationToken = default) =>
        Task.Run(() => Read(processId, cancellationToken), cancellationToken);

    private static long Read(int processId, CancellationToken cancellationToken)
    {
        var client = new DiagnosticsClient(processId);
        var providers = new[]
        {
            new EventPipeProvider("System.Runtime", EventLevel.Informational, -1,
                new Dictionary<string, string> { ["EventCounterIntervalSec"] = "1" }),
        };
        double? megabytes = null;
        var stopped = 0;
        using var session = client.StartEventPipeSession(providers, requestRundown: false, circularBufferMB: 16);
        void Stop()
        {
            if (Interlocked.Exchange(ref stopped, 1) == 0)
            {
                try
                {
                    session.Stop();
                }
                catch (ServerNotAvailableException)
                {
                    // The process exited: the stream ends on its own.
                }
            }
        }

        using var cancelling = cancellationToken.Register(Stop);
        using var source = new EventPipeEventSource(session.EventStream);
        source.Dynamic.All += data =>
        {
            if (megabytes is not null || data.EventName != "EventCounters" || data.PayloadValue(0) is not IDictionary<string, object> outer
                || !outer.TryGetValue("Payload", out var inner) || inner is not IDictionary<string, object> fields
                || !fields.TryGetValue("Name", out var name) || !"gc-committed".Equals(name))
            {
                return;
            }

            megabytes = Convert.ToDouble(fields.TryGetValue("Mean", out var mean) ? mean : fields["Increment"], System.Globalization.CultureInfo.InvariantCulture);
            Task.Run(Stop);
        };

        var reading = Task.Factory.StartNew(source.Process, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        if (!reading.Wait(Timeout))
        {
            Stop();
            throw new TimeoutException($"Process {processId} published no gc-committed counter within {Timeout.TotalSeconds} s.");
        }

        cancellationToken.ThrowIfCancellationRequested();
        return megabytes is { } value
            ? (long)Math.Round(value * 1_000_000)
            : throw new InvalidOperationException($"Process {processId} published no gc-committed counter.");
    }
}
