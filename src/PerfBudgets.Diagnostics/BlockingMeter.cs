using System.Diagnostics;
using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing.Etlx;
using PerfBudgets.Measuring;
using PerfBudgets.Statistics;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// Measures how much a server blocks its thread-pool threads: while a workload drives the server, an EventPipe session
/// samples every managed thread's stack about once a millisecond and counts the runtime's lock-contention events. A
/// sample that finds a pool thread inside a work item and inside a wait (<see cref="BlockingStack"/>; not entering a
/// lock the platform's own code took) is blocked time;
/// the figures are blocked thread-milliseconds and contentions per operation.
/// </summary>
/// <remarks>
/// <para>
/// Why this does not depend on the machine's speed: a blocking call's cost is the wall time it holds the thread
/// (<c>Thread.Sleep(1)</c> is a millisecond anywhere), and code that never blocks scores zero however slow the CPU or
/// busy the neighbours (a preempted thread is not in a wait frame). Time figures of load runs mix the two; this
/// separates them. CPU budgets cannot see blocking at all: a blocked thread executes nothing.
/// </para>
/// <para>
/// The session has the runtime's sample profiler (<c>Microsoft-DotNETCore-SampleProfiler</c>, one ThreadSample per
/// managed thread per tick, running or not) and <c>Microsoft-Windows-DotNETRuntime</c> with the Contention keyword
/// (0x4000: a ContentionStart event, with its stack, each time a thread finds a lock taken) and the JIT, Loader and NGen
/// keywords, whose method events and the rundown let TraceEvent name the frames. Each blocked sample counts for the time
/// since that thread's previous sample (at most <see cref="LongestSampleGap"/>), so a slower sampler on a loaded
/// machine does not shrink the figure.
/// </para>
/// </remarks>
public static class BlockingMeter
{
    /// <summary>The longest gap between two samples of a thread that one sample stands for.</summary>
    public static readonly TimeSpan LongestSampleGap = TimeSpan.FromMilliseconds(5);

    private const string SampleProfilerProvider = "Microsoft-DotNETCore-SampleProfiler";
    private const long ContentionKeyword = 0x4000;
    private const long GcKeyword = 0x1;
    private const int ExternalCodeSample = 1;

    /// <summary>
    /// Runs <paramref name="runOperations"/> (which drives the server and returns how many operations completed) under
    /// a session on <paramref name="processId"/>, and reads what the server's pool threads waited on meanwhile.
    /// </summary>
    /// <exception cref="InvalidOperationException">The process cannot be reached over its diagnostics port.</exception>
    public static async Task<BlockingMeasurement> MeasureAsync(int processId, Func<CancellationToken, Task<long>> runOperations, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(runOperations);
        var providers = Providers();
        return await EventPipeRecording.RecordAsync(processId, providers, async () =>
            {
                var started = Stopwatch.GetTimestamp();
                var operations = await runOperations(cancellationToken);
                return (Operations: operations, Window: Stopwatch.GetElapsedTime(started));
            },
            (log, run, _) => Read(log, run.Operations, run.Window, (_, frames) => BlockingStack.Read(frames)));
    }

    /// <summary>
    /// Launches an app suspended (the runtime waits at its start for a diagnostics client), records it from its first
    /// managed instruction to its first 2xx answer on the path <paramref name="launch"/> names, and reads what its
    /// startup waited on: its main thread (the entry point, <c>Program.cs</c>, the host's start) and pool threads inside
    /// work items, as <see cref="MeasureAsync"/> reads them. The main thread's wait in the host's <c>Run</c> once the
    /// app has started is not blocking. The measurement counts one operation, the first response, and holds the bytes
    /// the app had allocated by then (<see cref="BlockingMeasurement.AllocatedBytes"/>).
    /// </summary>
    /// <param name="launch">The start of the app, on a free loopback port it is given, and the path it must answer 2xx.</param>
    /// <param name="timeout">How long the launch may take to connect and to answer.</param>
    /// <param name="cancellationToken">Cancels the launch.</param>
    /// <exception cref="TimeoutException">The app did not connect to the diagnostic port (is it a .NET app started
    /// directly?) or did not answer 2xx in time.</exception>
    public static async Task<BlockingMeasurement> MeasureStartupAsync(Func<int, (ProcessStartInfo Start, string Path)> launch,
        TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(launch);
        var providers = Providers(allocations: true);
        var portFolder = Directory.CreateTempSubdirectory("perfbudgets-port-");
        var port = Path.Combine(portFolder.FullName, "startup.sock");
        Task<DiagnosticsClientConnector>? connecting = null;
        EventPipeRecording? recording = null;
        var processId = 0;
        // Ends the listener too when the app never connects (FromDiagnosticPort then gives the server up).
        using var listening = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        try
        {
            using var client = new HttpClient(new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.Zero, UseProxy = false }) { Timeout = timeout };
            var time = await StartupMeter.TimeToFirstSuccessAsync(client, loopbackPort =>
                {
                    var (start, path) = launch(loopbackPort);
                    // The runtime connects to this listener at its start and waits there until told to resume.
                    start.Environment["DOTNET_DiagnosticPorts"] = $"{port},connect,suspend";
                    connecting = DiagnosticsClientConnector.FromDiagnosticPort($"{port},listen", listening.Token);
                    return (start, path);
                },
                timeout,
                async (process, token) =>
                {
                    processId = process.Id;
                    DiagnosticsClientConnector connector;
                    try
                    {
                        connector = await connecting!.WaitAsync(timeout, token);
                    }
                    catch (TimeoutException)
                    {
                        throw new TimeoutException($"{process.StartInfo.FileName} did not connect to the diagnostic port {port} within {timeout.TotalSeconds} s of its start: is it a .NET app, started directly?");
                    }

                    try
                    {
                        recording = EventPipeRecording.Start(connector.Instance, providers);
                        connector.Instance.ResumeRuntime();
                    }
                    catch
                    {
                        await connector.DisposeAsync();
                        throw;
                    }

                    return new StoppedAtFirstResponse(recording, connector);
                },
                cancellationToken);
            return recording!.Read(log => Read(log, 1, time.Wall,
                (thread, frames) => thread == processId ? BlockingStack.ReadMainThread(frames) : BlockingStack.Read(frames)));
        }
        finally
        {
            await listening.CancelAsync();
            recording?.Dispose();
            try
            {
                portFolder.Delete(recursive: true);
            }
            catch (IOException)
            {
                // A leftover socket file in a temporary folder is harmless.
            }
        }
    }

    // With allocations, the GC keyword at the verbose level adds an AllocationTick event each time a thread has
    // allocated about 100 KB.
    private static EventPipeProvider[] Providers(bool allocations = false) =>
    [
        new EventPipeProvider(SampleProfilerProvider, EventLevel.Informational),
        allocations
            ? new EventPipeProvider(RuntimeKeywords.Provider, EventLevel.Verbose, ContentionKeyword | RuntimeKeywords.MethodNames | GcKeyword)
            : new EventPipeProvider(RuntimeKeywords.Provider, EventLevel.Informational, ContentionKeyword | RuntimeKeywords.MethodNames),
    ];

    // The thread reader gets the sample's OS thread id and its frames, innermost first.
    private static BlockingMeasurement Read(TraceLog log, long operations, TimeSpan window, Func<int, IReadOnlyList<string>, BlockingStack.Reading> readThread)
    {
        var lastSample = new Dictionary<int, double>();
        var sites = new Dictionary<(string Caller, string Wait), (double Ms, int Samples)>();
        var contentionSites = new Dictionary<string, int>(StringComparer.Ordinal);
        var gaps = new List<double>();
        double blockedMs = 0;
        long contentions = 0;
        long? allocated = null;
        int samples = 0, blockedSamples = 0, platformLockSamples = 0;
        var firstSampleOfThread = new List<(string Caller, string Wait)>();
        foreach (var e in log.Events)
        {
            if (e.ProviderName == SampleProfilerProvider)
            {
                var now = e.TimeStampRelativeMSec;
                double? gap = lastSample.TryGetValue(e.ThreadID, out var previous) ? Math.Min(now - previous, LongestSampleGap.TotalMilliseconds) : null;
                lastSample[e.ThreadID] = now;
                if (gap is { } g)
                {
                    gaps.Add(g);
                }

                var reading = readThread(e.ThreadID, Frames(e.CallStack()));
                if (!reading.InWorkItem)
                {
                    continue;
                }

                // A thread in a wait frame that still runs managed code is spinning before it blocks (a lock's
                // spin, SpinThenBlockingWait): CPU, which the CPU budgets see. Only a thread outside managed code
                // there is blocked. A thread entering a lock the platform took is counted apart (BlockingStack).
                samples++;
                if (reading.InPlatformLock)
                {
                    platformLockSamples += SampleType(e) == ExternalCodeSample ? 1 : 0;
                    continue;
                }

                if (!reading.IsBlocked || SampleType(e) != ExternalCodeSample)
                {
                    continue;
                }

                blockedSamples++;
                var key = (reading.Caller!, reading.Wait!);
                if (gap is { } weight)
                {
                    blockedMs += weight;
                    var site = sites.GetValueOrDefault(key);
                    sites[key] = (site.Ms + weight, site.Samples + 1);
                }
                else
                {
                    // A thread's first sample has no gap before it; it is weighed at the median gap below.
                    firstSampleOfThread.Add(key);
                }
            }
            else if (e.ProviderName == RuntimeKeywords.Provider && e.EventName.StartsWith("GC/AllocationTick", StringComparison.Ordinal)
                && e.PayloadByName("AllocationAmount64") is { } amount)
            {
                allocated = (allocated ?? 0) + Convert.ToInt64(amount, System.Globalization.CultureInfo.InvariantCulture);
            }
            else if (e.ProviderName == RuntimeKeywords.Provider && e.EventName.StartsWith("Contention/Start", StringComparison.Ordinal))
            {
                var frames = Frames(e.CallStack());
                var reading = readThread(e.ThreadID, frames);
                if (!reading.InWorkItem)
                {
                    continue;
                }

                contentions++;
                var caller = reading.Caller ?? BlockingStack.CallerOf(frames) ?? "(unresolved)";
                contentionSites[caller] = contentionSites.GetValueOrDefault(caller) + 1;
            }
        }

        if (firstSampleOfThread.Count > 0)
        {
            var median = gaps.Count > 0 ? Quantiles.Median(gaps) : 1.0;
            foreach (var key in firstSampleOfThread)
            {
                blockedMs += median;
                var site = sites.GetValueOrDefault(key);
                sites[key] = (site.Ms + median, site.Samples + 1);
            }
        }

        return new BlockingMeasurement(
            operations,
            window,
            blockedMs,
            contentions,
            samples,
            blockedSamples,
            [.. sites.OrderByDescending(s => s.Value.Ms).Select(s => new BlockingSite(s.Key.Caller, s.Key.Wait, s.Value.Ms, s.Value.Samples))],
            [.. contentionSites.OrderByDescending(s => s.Value).Select(s => (s.Key, s.Value))]) { AllocatedBytes = allocated, PlatformLockSamples = platformLockSamples };
    }

    // The ThreadSample payload is one 32-bit sample type: 1 = outside managed code (waiting, in the kernel, in native
    // code), 2 = running managed code.
    private static int SampleType(Microsoft.Diagnostics.Tracing.TraceEvent e)
    {
        var payload = e.EventData();
        return payload.Length >= 4 ? BitConverter.ToInt32(payload, 0) : -1;
    }

    private static List<string> Frames(TraceCallStack? stack)
    {
        var frames = new List<string>();
        for (var frame = stack; frame is not null; frame = frame.Caller)
        {
            var name = frame.CodeAddress.FullMethodName;
            frames.Add(string.IsNullOrEmpty(name) ? "?" : name);
        }

        return frames;
    }
}

/// <summary>Ends the startup recording at the first response: stops the session, then lets the process go.</summary>
file sealed class StoppedAtFirstResponse(EventPipeRecording recording, DiagnosticsClientConnector connector) : IAsyncDisposable
{
    public async ValueTask DisposeAsync()
    {
        try
        {
            recording.Stop();
        }
        finally
        {
            await connector.DisposeAsync();
        }
    }
}
