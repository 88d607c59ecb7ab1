using System.Diagnostics;
using HdrHistogram;
using PerfBudgets.Measuring;

namespace PerfBudgets.Load;

/// <summary>Runs a closed-model <see cref="LoadScenario"/> in this process and measures rate, latency and failures.</summary>
public static class LoadRunner
{
    // Latencies are recorded in microseconds, up to ten minutes, with three significant digits.
    private const long HighestTrackableMicroseconds = 10L * 60 * 1_000_000;

    /// <summary>Runs the scenario and returns what its measured window saw.</summary>
    public static async Task<LoadResult> RunAsync(LoadScenario scenario, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        scenario.Validate();
        BuildOptimization.EnsureOptimized();

        var start = Stopwatch.GetTimestamp();
        var window = new Window(
            start + ToTicks(scenario.WarmUp),
            start + ToTicks(scenario.WarmUp + scenario.Duration));
        var copies = new CopyOutcome[scenario.Copies];
        var tasks = new Task[scenario.Copies];
        using var drain = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        drain.CancelAfter(scenario.WarmUp + scenario.Duration + scenario.Drain);
        for (var i = 0; i < scenario.Copies; i++)
        {
            var index = i;
            copies[index] = new CopyOutcome();
            // Each copy starts on the thread pool so a step that blocks cannot hold back the others' start.
            tasks[index] = Task.Run(() => RunCopyAsync(scenario, index, window, copies[index], drain.Token, cancellationToken), cancellationToken);
        }

        await Task.WhenAll(tasks);

        var latency = new LongHistogram(HighestTrackableMicroseconds, 3);
        long completed = 0, failed = 0, abandoned = 0;
        var errors = new List<string>();
        foreach (var copy in copies)
        {
            latency.Add(copy.Latency);
            completed += copy.Completed;
            failed += copy.Failed;
            abandoned += copy.Abandoned;
            foreach (var error in copy.Errors)
            {
                if (errors.Count < 5 && !errors.Contains(error))
                {
                    errors.Add(error);
                }
            }
        }

        return new LoadResult(
            scenario.Name,
            scenario.Copies,
            scenario.Duration.TotalSeconds,
            completed,
            failed,
            latency.TotalCount == 0 ? 0 : latency.GetValueAtPercentile(50) / 1000.0,
            latency.TotalCount == 0 ? 0 : latency.GetValueAtPercentile(99) / 1000.0,
            latency.TotalCount == 0 ? 0 : latency.GetMaxValue() / 1000.0,
            abandoned,
            errors);
    }

    private static async Task RunCopyAsync(LoadScenario scenario, int index, Window window, CopyOutcome outcome, CancellationToken stepToken, CancellationToken cancellationToken)
    {
        while (!stepToken.IsCancellationRequested)
        {
            var started = Stopwatch.GetTimestamp();
            if (started >= window.End)
            {
                return;
            }

            bool ok;
            string? error = null;
            try
            {
                ok = await scenario.Step(index, stepToken);
                if (!ok)
                {
                    error = "step reported failure";
                }
            }
            catch (Exception e) when (!stepToken.IsCancellationRequested)
            {
                ok = false;
                error = $"{e.GetType().Name}: {e.Message}";
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                // The drain after the measured window ran out: the request is cut off, neither a success nor a failure.
                outcome.Abandoned++;
                return;
            }

            var finished = Stopwatch.GetTimestamp();
            if (!ok)
            {
                outcome.Failed++;
                if (outcome.Errors.Count < 5 && error is not null)
                {
                    outcome.Errors.Add(error);
                }

                continue;
            }

            if (finished >= window.Start && finished <= window.End)
            {
                outcome.Completed++;
            }

            if (started >= window.Start)
            {
                var micros = Math.Clamp(Stopwatch.GetElapsedTime(started, finished).Ticks / 10, 1, HighestTrackableMicroseconds);
                outcome.Latency.RecordValue(micros);
            }
        }
    }

    private static long ToTicks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);

    private readonly record struct Window(long Start, long End);

    private sealed class CopyOutcome
    {
        public LongHistogram Latency { get; } = new(HighestTrackableMicroseconds, 3);

        public long Completed { get; set; }

        public long Failed { get; set; }

        public long Abandoned { get; set; }

        public List<string> Errors { get; } = [];
    }
}
