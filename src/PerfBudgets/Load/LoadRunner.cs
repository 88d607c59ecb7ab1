using System.Diagnostics;
using PerfBudgets.Measuring;

namespace PerfBudgets.Load;

/// <summary>
/// Runs a <see cref="LoadScenario"/> in this process: its phases in order, closed-model phases as copies running back
/// to back, open-model phases as requests started on a schedule. Returns what the measured phases saw.
/// </summary>
public static class LoadRunner
{
    /// <summary>Runs the scenario and returns what its measured phases saw.</summary>
    public static async Task<LoadResult> RunAsync(LoadScenario scenario, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        scenario.Validate();
        BuildOptimization.EnsureOptimized();

        var run = new Run(scenario, cancellationToken);
        var start = Stopwatch.GetTimestamp();
        var total = scenario.Simulations.Aggregate(TimeSpan.Zero, (sum, s) => sum + s.Duration);
        using var progress = scenario.Progress is null
            ? null
            : new Timer(_ => scenario.Progress(run.Progress(Stopwatch.GetElapsedTime(start), total, PhaseAt(scenario, Stopwatch.GetElapsedTime(start)))), null, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));

        var phases = scenario.Simulations;
        var segmentStart = start;
        for (var i = 0; i < phases.Count && !run.StepToken.IsCancellationRequested;)
        {
            // A segment starts late only when the one before it needed its drain; its clock starts then.
            segmentStart = Math.Max(segmentStart, Stopwatch.GetTimestamp());
            if (phases[i].Model == LoadModel.Open)
            {
                var phase = new ScheduledPhase(phases[i], segmentStart, segmentStart + ToTicks(phases[i].Duration));
                run.Recorder.Schedule(phase.Phase, phase.Start, phase.End);
                // The schedule runs on a thread of its own: a thread-pool thread could be starved by the very load it
                // generates, and the schedule would then slip without anyone seeing it.
                await Task.Factory.StartNew(() => run.RunOpenPhase(phase), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
                segmentStart = phase.End;
                i++;
                continue;
            }

            // Consecutive closed phases form one segment run by the same copies, so a copy goes on from a warm-up into
            // the measured phase (or along a ramp) without waiting for the others, as a virtual user would.
            var segment = new List<ScheduledPhase>();
            for (var at = segmentStart; i < phases.Count && phases[i].Model == LoadModel.Closed; i++)
            {
                segment.Add(new ScheduledPhase(phases[i], at, at + ToTicks(phases[i].Duration)));
                run.Recorder.Schedule(segment[^1].Phase, segment[^1].Start, segment[^1].End);
                at = segment[^1].End;
            }

            await run.RunClosedSegmentAsync(segment);
            segmentStart = segment[^1].End;
        }

        await run.DrainAsync(scenario.Drain);
        cancellationToken.ThrowIfCancellationRequested();
        return run.Recorder.ToResult(scenario, scenario.Duration.TotalSeconds);
    }

    // The phase the plan has at this point of the run, for progress lines.
    private static LoadSimulation PhaseAt(LoadScenario scenario, TimeSpan elapsed)
    {
        foreach (var phase in scenario.Simulations)
        {
            if (elapsed < phase.Duration)
            {
                return phase;
            }

            elapsed -= phase.Duration;
        }

        return scenario.Simulations[^1];
    }

    private static long ToTicks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);

    private sealed class Run(LoadScenario scenario, CancellationToken cancellationToken)
    {
        private readonly CancellationTokenSource _steps = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        private long _requestNumber = -1;
        private long _lastFinished;
        private long _lastProgress = Stopwatch.GetTimestamp();

        public LoadRecorder Recorder { get; } = new();

        public CancellationToken StepToken => _steps.Token;

        public async Task RunClosedSegmentAsync(IReadOnlyList<ScheduledPhase> segment)
        {
            var copies = (int)segment.Max(p => Math.Max(p.Phase.From, p.Phase.To));
            var tasks = new Task[copies];
            for (var copy = 0; copy < copies; copy++)
            {
                var index = copy;
                // Each copy starts on the thread pool so a step that blocks cannot hold back the others' start.
                tasks[copy] = Task.Run(() => RunCopyAsync(segment, index), CancellationToken.None);
            }

            // Copies finish the request they are in when the segment ends; one that hangs past the drain is cut off.
            var all = Task.WhenAll(tasks);
            var remaining = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), segment[^1].End) + scenario.Drain;
            if (await Task.WhenAny(all, Task.Delay(remaining > TimeSpan.Zero ? remaining : TimeSpan.Zero, CancellationToken.None)) != all)
            {
                await _steps.CancelAsync();
            }

            await all;
        }

        public void RunOpenPhase(ScheduledPhase scheduled)
        {
            var (phase, phaseStart, _) = scheduled;
            var measured = !phase.IsWarmUp;
            for (long k = 0; !_steps.IsCancellationRequested; k++)
            {
                if (phase.IntendedOffset(k) is not { } offset)
                {
                    return;
                }

                var due = phaseStart + ToTicks(offset);
                // Sleep in 1 ms steps rather than spin: a spinning scheduler would take a core from the server on a
                // small machine. Requests due during a sleep start together when it ends; each one's latency still
                // counts from its own due time, and the lag is reported (ScheduleLagP99Ms).
                while (Stopwatch.GetTimestamp() < due && !_steps.IsCancellationRequested)
                {
                    Thread.Sleep(1);
                }

                Recorder.Due(measured);
                if (Recorder.InFlight >= scenario.MaxInFlight)
                {
                    Recorder.NotStarted(measured);
                    continue;
                }

                Recorder.Started();
                var context = new LoadStepContext(-1, Interlocked.Increment(ref _requestNumber));
                ThreadPool.UnsafeQueueUserWorkItem(static state => _ = state.Run.ExecuteAsync(state.Context, state.Due, state.Measured), (Run: this, Context: context, Due: due, Measured: measured), preferLocal: false);
            }
        }

        public async Task DrainAsync(TimeSpan drain)
        {
            var deadline = Stopwatch.GetTimestamp() + ToTicks(drain);
            while (Recorder.InFlight > 0 && Stopwatch.GetTimestamp() < deadline)
            {
                await Task.Delay(10, CancellationToken.None);
            }

            if (Recorder.InFlight > 0)
            {
                await _steps.CancelAsync();
                // Cancelled steps end quickly; a step that ignores its token is given a last few seconds, then left.
                var last = Stopwatch.GetTimestamp() + ToTicks(TimeSpan.FromSeconds(5));
                while (Recorder.InFlight > 0 && Stopwatch.GetTimestamp() < last)
                {
                    await Task.Delay(10, CancellationToken.None);
                }
            }

            _steps.Dispose();
        }

        public LoadProgress Progress(TimeSpan elapsed, TimeSpan total, LoadSimulation phase)
        {
            var now = Stopwatch.GetTimestamp();
            var finished = Recorder.Finished;
            var seconds = Stopwatch.GetElapsedTime(Interlocked.Exchange(ref _lastProgress, now), now).TotalSeconds;
            var rate = seconds <= 0 ? 0 : (finished - Interlocked.Exchange(ref _lastFinished, finished)) / seconds;
            return new LoadProgress(scenario.Name, elapsed, total, phase, finished, rate, Recorder.Failed, Recorder.NotSent, Recorder.InFlight);
        }

        private async Task RunCopyAsync(IReadOnlyList<ScheduledPhase> segment, int copy)
        {
            var current = 0;
            while (!_steps.IsCancellationRequested)
            {
                var now = Stopwatch.GetTimestamp();
                while (current < segment.Count && now >= segment[current].End)
                {
                    current++;
                }

                if (current == segment.Count)
                {
                    return;
                }

                // A ramp runs copy i only while the ramp's current value is above i; the others wait their turn.
                var (phase, phaseStart, _) = segment[current];
                if (copy >= phase.ValueAt(Stopwatch.GetElapsedTime(phaseStart, now)))
                {
                    await Task.Delay(10, CancellationToken.None);
                    continue;
                }

                Recorder.Started();
                if (!await ExecuteAsync(new LoadStepContext(copy, Interlocked.Increment(ref _requestNumber)), now, !phase.IsWarmUp))
                {
                    return;
                }
            }
        }

        /// <summary>Runs one step; false when it was cut off by the end of the drain.</summary>
        private async Task<bool> ExecuteAsync(LoadStepContext context, long intendedStart, bool measured)
        {
            var actualStart = Stopwatch.GetTimestamp();
            LoadStepOutcome outcome;
            try
            {
                outcome = await scenario.Step(context, _steps.Token);
            }
            catch (OperationCanceledException) when (_steps.IsCancellationRequested)
            {
                // Cut off by the drain (or by the caller): neither a success nor a failure.
                Recorder.Abandon();
                return false;
            }
            catch (Exception e)
            {
                outcome = LoadStepOutcome.Failure($"{e.GetType().Name}: {e.Message}");
            }

            Recorder.Ended(measured, intendedStart, actualStart, Stopwatch.GetTimestamp(), outcome);
            return true;
        }
    }

    /// <summary>A phase with the timestamps at which it starts and ends in this run.</summary>
    private readonly record struct ScheduledPhase(LoadSimulation Phase, long Start, long End);
}
