using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing.Etlx;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// Says where an operation spends its CPU: runs it again under an EventPipe session with the runtime's sample profiler
/// and counts exclusive samples per method (the innermost managed frame of each sample). Meant for a budget that has
/// already failed; the modes mirror <see cref="Measuring.CpuMeter"/>'s.
/// </summary>
/// <remarks>
/// <para>
/// The session (Microsoft.Diagnostics.NETCore.Client) has two providers: <c>Microsoft-DotNETCore-SampleProfiler</c>,
/// which suspends the runtime about every millisecond and writes one ThreadSample event with a managed stack per
/// thread, and <c>Microsoft-Windows-DotNETRuntime</c> with the JIT, Loader and NGen keywords (0x10 | 0x8 | 0x20), whose
/// method-load events, with the rundown at the session's end, let TraceEvent turn code addresses into method names.
/// The stream goes to a temporary .nettrace file; TraceEvent converts it (<see cref="TraceLog.CreateFromEventPipeDataFile"/>)
/// and resolves each sample's stack.
/// </para>
/// <para>
/// A ThreadSample's payload says whether the thread was running managed code (2) or was outside it (1: waiting,
/// blocked in the kernel, in native code); only managed samples are counted, so idle threads and waits do not crowd
/// out the work. An in-process per-operation profile also keeps only the calling thread's samples. A sample is
/// credited to its innermost resolved managed frame that is not a GC poll: a thread stopped for the sample sits in a
/// runtime stub or a GC poll, and without this a server profile credited about a third of its samples to those.
/// Samples whose method is a known wait (a pool worker waiting for work, the socket engine's epoll loop, a lock or
/// event wait) are left out too: the sampler calls some blocked threads managed.
/// </para>
/// </remarks>
public static class CpuProfiler
{
    /// <summary>How long an operation is run under the profiler by default (~1,000 samples of a busy thread).</summary>
    public static readonly TimeSpan DefaultDuration = TimeSpan.FromSeconds(1);

    private const string SampleProfilerProvider = "Microsoft-DotNETCore-SampleProfiler";
    private const int ManagedSample = 2;

    // Frames where an idle or blocked thread sits while the sampler still reports it as in managed code: pool workers
    // waiting for work, the socket engine's epoll loop, lock and event waits. Time there is waiting, not the operation's
    // work, and in a server profile these took about half of the "managed" samples.
    private static readonly string[] KnownWaits =
    [
        "System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart",
        "System.Threading.PortableThreadPool+GateThread",
        "System.Threading.LowLevelLifoSemaphore",
        "System.Threading.LowLevelSpinWaiter.Wait",
        "System.Threading.LowLevelMonitor",
        "System.Threading.Monitor.Enter_Slowpath",
        "System.Threading.Monitor.Wait",
        "System.Threading.WaitHandle.Wait",
        "System.Threading.ManualResetEventSlim.Wait",
        "System.Threading.SemaphoreSlim.Wait",
        "System.Threading.Thread.Sleep",
        "System.Threading.Thread.Join",
        "System.Threading.TimerQueue",
        "System.Threading.Tasks.Task.SpinThenBlockingWait",
        "System.Threading.Tasks.Task.InternalWaitCore",
        "System.Net.Sockets.SocketAsyncEngine.EventLoop",
    ];

    private static readonly EventPipeProvider[] Providers =
    [
        new(SampleProfilerProvider, EventLevel.Informational),
        new(RuntimeKeywords.Provider, EventLevel.Informational, RuntimeKeywords.MethodNames),
    ];

    /// <summary>Profiles <paramref name="operation"/> on the calling thread of this process; only this thread's samples count.</summary>
    public static CpuProfile PerOperation(Action operation, TimeSpan? duration = null)
    {
        ArgumentNullException.ThrowIfNull(operation);
        var self = OsThread.CurrentId() ?? throw new PlatformNotSupportedException("The calling thread's OS id is unknown on this platform.");
        return Profile(Environment.ProcessId, id => id == self, count => Repeat(operation, count), duration, "the measuring thread");
    }

    /// <summary>Profiles work the calling thread drives on any thread of this process (<paramref name="runOperations"/> runs N operations).</summary>
    public static CpuProfile ProcessWide(Action<int> runOperations, TimeSpan? duration = null)
    {
        ArgumentNullException.ThrowIfNull(runOperations);
        return Profile(Environment.ProcessId, static _ => true, runOperations, duration, "this process");
    }

    /// <summary>
    /// Profiles a server in another process while <paramref name="runOperations"/> drives it from here: every thread
    /// of <paramref name="serverProcessId"/> that is running managed code.
    /// </summary>
    public static CpuProfile PerServerOperation(int serverProcessId, Action<int> runOperations, TimeSpan? duration = null)
    {
        ArgumentNullException.ThrowIfNull(runOperations);
        return Profile(serverProcessId, static _ => true, runOperations, duration, $"server process {serverProcessId}");
    }

    /// <summary>
    /// Profiles two builds of a server side by side and says what grew in the head: both processes are recorded at
    /// once while <paramref name="runBase"/> and <paramref name="runHead"/> take turns, batch by batch, the same
    /// number of operations each, and the head's profile is compared with the base's
    /// (<see cref="CpuProfile.ComparedWithBase"/>). The sampler's ~1 ms ticks are wall time, so a neighbour that
    /// takes the core while one build runs inflates that build's samples per operation: profiled one after the
    /// other, the two builds can meet different neighbours; taking turns every ~20 ms, they meet the same ones.
    /// </summary>
    /// <param name="baseProcessId">The base's server process.</param>
    /// <param name="runBase">Runs N operations against the base's server.</param>
    /// <param name="headProcessId">The head's server process.</param>
    /// <param name="runHead">Runs N operations against the head's server.</param>
    /// <param name="duration">How long each build runs under the profiler (default <see cref="DefaultDuration"/>; both together take twice that).</param>
    public static Attribution CompareServersSideBySide(int baseProcessId, Action<int> runBase, int headProcessId, Action<int> runHead, TimeSpan? duration = null)
    {
        ArgumentNullException.ThrowIfNull(runBase);
        ArgumentNullException.ThrowIfNull(runHead);
        var limit = duration ?? DefaultDuration;
        using var baseRecording = EventPipeRecording.Start(new DiagnosticsClient(baseProcessId), Providers);
        using var headRecording = EventPipeRecording.Start(new DiagnosticsClient(headProcessId), Providers);
        var started = Stopwatch.GetTimestamp();
        var operations = BatchedRun.TakingTurns(limit * 2, runBase, runHead);
        var elapsed = Stopwatch.GetElapsedTime(started);
        headRecording.Stop();
        baseRecording.Stop();
        var baseProfile = baseRecording.Read(log => Read(log, id => id != baseRecording.CopyThread, $"server process {baseProcessId}", elapsed)) with { Operations = operations };
        var headProfile = headRecording.Read(log => Read(log, id => id != headRecording.CopyThread, $"server process {headProcessId}", elapsed)) with { Operations = operations };
        return headProfile.ComparedWithBase(baseProfile);
    }

    private static CpuProfile Profile(int processId, Func<long, bool> countThread, Action<int> runOperations, TimeSpan? duration, string target)
    {
        var limit = duration ?? DefaultDuration;

        // The operations run on this thread and complete the task at once; no thread waits on another here.
        return EventPipeRecording.RecordAsync(processId, Providers, () =>
            {
                var started = Stopwatch.GetTimestamp();
                var operations = BatchedRun.For(limit, runOperations);
                return Task.FromResult((Elapsed: Stopwatch.GetElapsedTime(started), Operations: operations));
            },
            (log, ran, copyThread) => Read(log, id => id != copyThread && countThread(id), target, ran.Elapsed) with { Operations = ran.Operations }).GetAwaiter().GetResult();
    }

    private static CpuProfile Read(TraceLog log, Func<long, bool> countThread, string target, TimeSpan elapsed)
    {
        var byMethod = new Dictionary<string, int>(StringComparer.Ordinal);
        var byOwn = new Dictionary<string, int>(StringComparer.Ordinal);
        var counted = 0;
        var skipped = 0;
        foreach (var e in log.Events)
        {
            if (e.ProviderName != SampleProfilerProvider)
            {
                continue;
            }

            // The ThreadSample payload is one 32-bit sample type: 1 = outside managed code, 2 = managed.
            var payload = e.EventData();
            var type = payload.Length >= 4 ? BitConverter.ToInt32(payload, 0) : -1;
            if (type != ManagedSample || !countThread(e.ThreadID))
            {
                skipped++;
                continue;
            }

            var stack = e.CallStack();
            var name = ExclusiveMethod(stack);
            if (KnownWaits.Any(w => name.StartsWith(w, StringComparison.Ordinal)))
            {
                skipped++;
                continue;
            }

            byMethod[name] = byMethod.GetValueOrDefault(name) + 1;
            var own = OwnFrames.Of(stack).Own;
            byOwn[own] = byOwn.GetValueOrDefault(own) + 1;
            counted++;
        }

        return new CpuProfile(Shares(byMethod, counted), counted, skipped, target, elapsed) { OwnCode = Shares(byOwn, counted) };
    }

    private static List<MethodSamples> Shares(Dictionary<string, int> samples, int counted) =>
        samples
            .OrderByDescending(m => m.Value)
            .ThenBy(m => m.Key, StringComparer.Ordinal)
            .Select(m => new MethodSamples(m.Key, m.Value, (double)m.Value / counted))
            .ToList();

    // The innermost frame that names the code the thread was running. A thread stopped for the sample is often inside a
    // runtime stub (a return-address hijack, a GC poll) whose address resolves to no managed method; those frames are
    // the profiler's own footprint, so the sample goes to the first managed method below them.
    private static string ExclusiveMethod(TraceCallStack? stack)
    {
        var first = stack?.CodeAddress;
        for (var frame = stack; frame is not null; frame = frame.Caller)
        {
            var name = frame.CodeAddress.FullMethodName;
            if (!string.IsNullOrEmpty(name) && !name.Contains("PollGC", StringComparison.Ordinal))
            {
                return MethodName(frame.CodeAddress);
            }
        }

        return first is null ? "(no stack)" : MethodName(first);
    }

    private static string MethodName(TraceCodeAddress address)
    {
        var name = address.FullMethodName;
        if (!string.IsNullOrEmpty(name))
        {
            // TraceEvent writes the signature after the name; the name alone reads better in a one-line message.
            var paren = name.IndexOf('(', StringComparison.Ordinal);
            return paren > 0 ? name[..paren] : name;
        }

        return string.IsNullOrEmpty(address.ModuleName) ? $"(unresolved 0x{address.Address:x})" : $"{address.ModuleName}!0x{address.Address:x}";
    }

    // Not inlined so the loop shows as its own frame, never merged into the operation's.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Repeat(Action operation, int count)
    {
        for (var i = 0; i < count; i++)
        {
            operation();
        }
    }
}
