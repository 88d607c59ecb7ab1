using System.Diagnostics;
using System.Diagnostics.Tracing;
using PerfBudgets.Measuring;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// The <see cref="EventListener"/> behind <see cref="AllocationProfiler"/>: turns the runtime's allocation sampling
/// events into estimated bytes per type, for the threads a filter accepts.
/// </summary>
internal sealed class AllocationListener : EventListener
{
    private const EventKeywords AllocationSamplingKeyword = (EventKeywords)0x80000000000;
    private const EventKeywords GcKeyword = (EventKeywords)0x1;
    private const int AllocationSampledId = 303;
    private const int GcAllocationTickId = 10;

    // Field initializers run before EventListener's constructor, which may already call OnEventSourceCreated.
    private readonly object _gate = new();
    private readonly Dictionary<string, (double Bytes, int Samples)> _byType = new(StringComparer.Ordinal);
    private readonly List<EventSource> _runtimeSources = [];
    private Func<long, bool> _countThread = static _ => false;
    private long _dispatchThread = -1;
    private int _samples;
    private long _lastEventTimestamp;
    private bool _useAllocationSampled;
    private bool _started;

    private AllocationListener() { }

    /// <summary>Samples counted so far (they arrive asynchronously, a little after the allocations).</summary>
    public int Samples => Volatile.Read(ref _samples);

    /// <summary>Starts listening; only events from threads <paramref name="countThread"/> accepts are counted.</summary>
    public static AllocationListener Start(Func<long, bool> countThread)
    {
        var listener = new AllocationListener();
        listener._countThread = countThread;

        // AllocationSampled exists from .NET 9 on; before that the only allocation event is the GC's AllocationTick.
        listener._useAllocationSampled = Environment.Version.Major >= 9;
        EventSource[] sources;
        lock (listener._gate)
        {
            listener._started = true;
            sources = [.. listener._runtimeSources];
        }

        foreach (var source in sources)
        {
            listener.Enable(source);
        }

        return listener;
    }

    /// <summary>Waits for the events still in flight, stops listening, and returns the estimate per operation.</summary>
    public AllocationProfile Finish(long operations, TimeSpan elapsed)
    {
        // Events are dispatched on the listener's own thread a little after they are written: wait until none has
        // arrived for 200 ms (at most 2 s), so the last allocations of the run are in.
        var waitStarted = Stopwatch.GetTimestamp();
        Volatile.Write(ref _lastEventTimestamp, Stopwatch.GetTimestamp());
        while (Stopwatch.GetElapsedTime(Volatile.Read(ref _lastEventTimestamp)) < TimeSpan.FromMilliseconds(200)
            && Stopwatch.GetElapsedTime(waitStarted) < TimeSpan.FromSeconds(2))
        {
            Thread.Sleep(20);
        }

        lock (_gate)
        {
            _countThread = static _ => false;
            foreach (var source in _runtimeSources)
            {
                DisableEvents(source);
            }

            var types = _byType
                .Select(t => new TypeAllocation(t.Key, t.Value.Bytes / Math.Max(operations, 1), t.Value.Samples))
                .OrderByDescending(t => t.BytesPerOperation)
                .ThenBy(t => t.TypeName, StringComparer.Ordinal)
                .ToList();
            return new AllocationProfile(types, operations, _samples, _useAllocationSampled ? "AllocationSampled" : "GCAllocationTick", elapsed);
        }
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name != RuntimeKeywords.Provider)
        {
            return;
        }

        bool started;
        lock (_gate)
        {
            _runtimeSources.Add(eventSource);
            started = _started;
        }

        if (started)
        {
            Enable(eventSource);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (_dispatchThread == -1)
        {
            _dispatchThread = OsThread.CurrentId() ?? -2;
        }

        var isSample = _useAllocationSampled ? eventData.EventId == AllocationSampledId : eventData.EventId == GcAllocationTickId;
        if (!isSample || eventData.Payload is null || eventData.PayloadNames is null)
        {
            return;
        }

        Volatile.Write(ref _lastEventTimestamp, Stopwatch.GetTimestamp());
        var thread = eventData.OSThreadId;
        lock (_gate)
        {
            if (thread == _dispatchThread || !_countThread(thread))
            {
                return;
            }

            var typeName = Payload(eventData, "TypeName") as string ?? "(unknown type)";
            var bytes = _useAllocationSampled
                ? AllocationProfiler.Upscale(Convert.ToDouble(Payload(eventData, "ObjectSize") ?? 0, System.Globalization.CultureInfo.InvariantCulture))
                : Convert.ToDouble(Payload(eventData, "AllocationAmount64") ?? Payload(eventData, "AllocationAmount") ?? 0, System.Globalization.CultureInfo.InvariantCulture);
            var current = _byType.GetValueOrDefault(typeName);
            _byType[typeName] = (current.Bytes + bytes, current.Samples + 1);
            _samples++;
        }
    }

    private void Enable(EventSource source)
    {
        if (_useAllocationSampled)
        {
            EnableEvents(source, EventLevel.Informational, AllocationSamplingKeyword);
        }
        else
        {
            EnableEvents(source, EventLevel.Verbose, GcKeyword);
        }
    }

    private static object? Payload(EventWrittenEventArgs e, string name)
    {
        var index = e.PayloadNames!.IndexOf(name);
        return index >= 0 ? e.Payload![index] : null;
    }
}
