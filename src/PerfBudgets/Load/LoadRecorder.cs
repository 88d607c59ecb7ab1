using System.Diagnostics;
using HdrHistogram;
using PerfBudgets.Statistics;

namespace PerfBudgets.Load;

/// <summary>
/// Collects what the requests of one run came to. Every request ends in one call under one lock: at the rates a
/// managed generator reaches (tens of thousands per second) the lock is uncontended enough, and it keeps the
/// histograms, the status codes and the per-second buckets consistent with each other.
/// </summary>
internal sealed class LoadRecorder
{
    // Latencies are recorded in microseconds, up to ten minutes, with three significant digits.
    private const long HighestTrackableMicroseconds = 10L * 60 * 1_000_000;

    private readonly object _lock = new();
    private readonly LongHistogram _latency = new(HighestTrackableMicroseconds, 3);
    private readonly LongHistogram _scheduleLag = new(HighestTrackableMicroseconds, 3);
    private readonly Dictionary<int, long> _statusCodes = [];
    private readonly Dictionary<string, long> _errors = new(StringComparer.Ordinal);
    private readonly List<long> _buckets = [];
    private long _completed;
    private long _bytesSent;
    private long _bytesReceived;
    private long _scheduled;

    // Read by the progress reporter from another thread.
    private long _finished;
    private long _failed;
    private long _notSent;
    private int _inFlight;
    private int _peakInFlight;
    private long _abandoned;

    /// <summary>Timestamp at which the first measured phase began; per-second buckets count from here.</summary>
    public long MeasuredStart { get; private set; } = long.MaxValue;

    /// <summary>Timestamp at which the last measured phase (so far) ends; completions after it fall in no bucket.</summary>
    public long MeasuredEnd { get; private set; } = long.MaxValue;

    public long Finished => Interlocked.Read(ref _finished);

    public long Failed => Interlocked.Read(ref _failed);

    public long NotSent => Interlocked.Read(ref _notSent);

    public int InFlight => Volatile.Read(ref _inFlight);

    public long MeasuredNotSent { get; private set; }

    /// <summary>A phase is about to run from <paramref name="start"/> to <paramref name="end"/> (timestamps): a measured one sets the window.</summary>
    public void Schedule(LoadSimulation phase, long start, long end)
    {
        if (!phase.IsWarmUp)
        {
            MeasuredStart = Math.Min(MeasuredStart, start);
            MeasuredEnd = end;
        }
    }

    /// <summary>An open-model request came due in a measured phase (whether it is sent or not).</summary>
    public void Due(bool measured)
    {
        if (measured)
        {
            Interlocked.Increment(ref _scheduled);
        }
    }

    /// <summary>A request is about to start.</summary>
    public void Started()
    {
        var now = Interlocked.Increment(ref _inFlight);
        int peak;
        while (now > (peak = Volatile.Read(ref _peakInFlight)) && Interlocked.CompareExchange(ref _peakInFlight, now, peak) != peak)
        {
        }
    }

    /// <summary>An open-model request could not start: the in-flight bound was reached.</summary>
    public void NotStarted(bool measured)
    {
        Interlocked.Increment(ref _notSent);
        if (measured)
        {
            lock (_lock)
            {
                MeasuredNotSent++;
            }
        }
    }

    /// <summary>A request was cut off by the end of the drain.</summary>
    public void Abandon()
    {
        Interlocked.Increment(ref _abandoned);
        Interlocked.Decrement(ref _inFlight);
    }

    /// <summary>A request ended.</summary>
    public void Ended(bool measured, long intendedStart, long actualStart, long end, in LoadStepOutcome outcome)
    {
        Interlocked.Increment(ref _finished);
        if (!outcome.IsSuccess)
        {
            Interlocked.Increment(ref _failed);
        }

        lock (_lock)
        {
            if (!outcome.IsSuccess)
            {
                var error = outcome.Error ?? "step reported failure";
                _errors[error] = _errors.GetValueOrDefault(error) + 1;
            }

            if (measured)
            {
                _statusCodes[outcome.StatusCode] = _statusCodes.GetValueOrDefault(outcome.StatusCode) + 1;
                _bytesSent += outcome.BytesSent;
                _bytesReceived += outcome.BytesReceived;
                if (outcome.IsSuccess)
                {
                    _completed++;
                    _latency.RecordValue(Micros(intendedStart, end));
                    _scheduleLag.RecordValue(Micros(intendedStart, actualStart));
                }
            }

            // Throughput is what ended inside the measured window, whichever phase the request was due in: requests of
            // the warm-up that end early in the window stand for those of the window that end after it, so at a steady
            // state the count is the rate whatever the latency, and it falls only when answers fall behind arrivals.
            if (outcome.IsSuccess && end >= MeasuredStart && end < MeasuredEnd)
            {
                var bucket = (int)((end - MeasuredStart) / Stopwatch.Frequency);
                while (_buckets.Count <= bucket)
                {
                    _buckets.Add(0);
                }

                _buckets[bucket]++;
            }
        }

        // Last, so that a drain that waits for zero in flight sees every figure above.
        Interlocked.Decrement(ref _inFlight);
    }

    /// <summary>The result, once every request has ended or been abandoned.</summary>
    public LoadResult ToResult(LoadScenario scenario, double measuredSeconds)
    {
        lock (_lock)
        {
            var measured = scenario.Simulations.Where(s => !s.IsWarmUp).ToArray();
            var models = measured.Select(s => s.Model).Distinct().ToArray();
            var openSeconds = measured.Where(s => s.Model == LoadModel.Open).Sum(s => s.Duration.TotalSeconds);
            var bucketCount = (int)Math.Ceiling(measuredSeconds - 1e-9);

            return new LoadResult
            {
                Scenario = scenario.Name,
                Model = models.Length > 1 ? "mixed" : models[0] == LoadModel.Open ? "open" : "closed",
                Phases = string.Join(", ", scenario.Simulations),
                Copies = scenario.Copies,
                TargetRate = openSeconds > 0 ? _scheduled / openSeconds : null,
                MeasuredSeconds = measuredSeconds,
                Scheduled = _scheduled,
                Requests = _statusCodes.Values.Sum(),
                Completed = _completed,
                Failed = _failed,
                NotSent = MeasuredNotSent,
                Abandoned = _abandoned,
                P50Ms = Percentile(_latency, 50),
                P75Ms = Percentile(_latency, 75),
                P90Ms = Percentile(_latency, 90),
                P95Ms = Percentile(_latency, 95),
                P99Ms = Percentile(_latency, 99),
                MaxMs = _latency.TotalCount == 0 ? double.NaN : _latency.GetMaxValue() / 1000.0,
                ScheduleLagP99Ms = openSeconds > 0 ? Percentile(_scheduleLag, 99) : 0,
                PeakInFlight = _peakInFlight,
                // Completions after the window (a request started near its end) are in the totals, not in a bucket.
                RequestsPerSecondBuckets = Enumerable.Range(0, bucketCount).Select(i => i < _buckets.Count ? (double)_buckets[i] : 0).ToArray(),
                StatusCodes = new SortedDictionary<int, long>(_statusCodes),
                BytesSent = _bytesSent,
                BytesReceived = _bytesReceived,
                Errors = new Dictionary<string, long>(_errors, StringComparer.Ordinal),
            };
        }
    }

    // No answer in the window, no latency: NaN, which the gate reports as not measured. A 0 here would read as the
    // fastest run ever and pass every latency budget of a server that answered nothing.
    // The nearest rank, as every quantile of the package (Quantiles): HdrHistogram's own GetValueAtPercentile rounds
    // the rank, which reads one request lower for some counts (the p99 of 160 requests is the 158th, not the 159th).
    internal static double Percentile(LongHistogram histogram, double percentile)
    {
        if (histogram.TotalCount == 0)
        {
            return double.NaN;
        }

        var rank = Quantiles.Rank(histogram.TotalCount, percentile / 100);
        long seen = 0;
        foreach (var value in histogram.RecordedValues())
        {
            seen += value.CountAtValueIteratedTo;
            if (seen >= rank)
            {
                return value.ValueIteratedTo / 1000.0;
            }
        }

        return histogram.GetMaxValue() / 1000.0;
    }

    private static long Micros(long from, long to) =>
        Math.Clamp((to - from) * 1_000_000 / Stopwatch.Frequency, 1, HighestTrackableMicroseconds);
}
