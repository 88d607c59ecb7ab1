using System.Diagnostics;
using PerfBudgets.Load;

namespace PerfBudgets.Tests.Load;

/// <summary>The runner's bookkeeping, on steps that need no server; the load suite measures real servers.</summary>
public sealed class LoadRunnerTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Failures_are_counted_per_distinct_error_with_their_status_codes()
    {
        var scenario = new LoadScenario("Closed.Failing", [LoadSimulation.KeepConstant(2, TimeSpan.FromSeconds(0.5))], (context, _) =>
            (context.Request % 3) switch
            {
                0 => ValueTask.FromResult(LoadStepOutcome.Failure("status 503", 503)),
                1 => throw new TimeoutException("no answer"),
                _ => ValueTask.FromResult(LoadStepOutcome.Success(200)),
            });

        var result = await LoadRunner.RunAsync(scenario, Token);

        result.Model.Should().Be("closed");
        result.Errors.Keys.Should().BeEquivalentTo("status 503", "TimeoutException: no answer");
        result.Failed.Should().Be(result.Errors.Values.Sum());
        result.StatusCodes.Should().ContainKeys(200, 503, 0);
        result.ErrorSummary().Should().Contain("× status 503").And.Contain("× TimeoutException: no answer");
    }

    [Fact]
    public async Task A_run_without_one_answer_has_no_latency_rather_than_a_latency_of_zero()
    {
        var scenario = new LoadScenario("Closed.NoAnswer", [LoadSimulation.KeepConstant(2, TimeSpan.FromSeconds(0.3))], (_, _) =>
            ValueTask.FromResult(LoadStepOutcome.Failure("status 503", 503)));

        var result = await LoadRunner.RunAsync(scenario, Token);

        result.Completed.Should().Be(0);
        new[] { result.P50Ms, result.P75Ms, result.P90Ms, result.P95Ms, result.P99Ms, result.MaxMs }.Should().OnlyContain(p => double.IsNaN(p),
            "a percentile over no answers would pass every latency budget at 0 ms");
    }

    [Fact]
    public async Task A_closed_ramp_runs_only_the_copies_its_value_allows()
    {
        // The ramp runs copy i once 1 + t > i, t in seconds: copy 1 from 0 s, copy 2 from 1 s, copy 3 from 2 s, each
        // with 1 s to start before the ramp ends. Every start is checked against the ramp's value at that moment,
        // which holds on a busy machine too (a copy can start late, never early). Whether copy 3 starts at all is the
        // one deadline a ramp has by nature: its window was 1/3 s once and a run beside the rest of the suite missed
        // it, then 2/3 s; now 1 s, in which copy 3's loop needs one turn of the thread pool. How many ran at once is
        // bounded from above only.
        var clock = Stopwatch.StartNew();
        var starts = new List<(int Copy, double Seconds)>();
        var finished = 0;
        var running = 0;
        var peak = 0;
        var scenario = new LoadScenario("Closed.Ramp", [LoadSimulation.RampingConstant(1, 4, TimeSpan.FromSeconds(3)), LoadSimulation.KeepConstant(2, TimeSpan.FromSeconds(0.25))], async (context, ct) =>
        {
            var now = Interlocked.Increment(ref running);
            InterlockedMax(ref peak, now);
            lock (starts)
            {
                starts.Add((context.Copy, clock.Elapsed.TotalSeconds));
            }

            await Task.Delay(5, ct);
            Interlocked.Decrement(ref running);
            Interlocked.Increment(ref finished);
            return LoadStepOutcome.Success();
        });

        var result = await LoadRunner.RunAsync(scenario, Token);

        // The test's clock started before the runner's, so a start is at or after its moment on the runner's clock.
        starts.Should().OnlyContain(s => s.Copy < 1 + s.Seconds, "a copy runs only once the ramp's value is above its index");
        starts.Select(s => s.Copy).Distinct().Should().BeEquivalentTo([0, 1, 2, 3], "every copy of the ramp ran before it ended");
        peak.Should().BeLessThanOrEqualTo(4, "the ramp never runs more than 4 copies");
        result.Copies.Should().Be(4);
        result.Completed.Should().Be(finished, "the runner counts every step that ended");
        result.PeakInFlight.Should().BeInRange(peak, 4, "the runner counts a request from just before its step to just after it");
    }

    [Fact]
    public async Task Progress_is_reported_once_a_second_while_the_scenario_runs()
    {
        // The run's last request holds it open until two lines are in, so a busy machine that runs the timer late
        // cannot end the run before them; a runner that reports nothing times that request out after 30 s.
        var lines = new List<LoadProgress>();
        var twoLines = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var scenario = new LoadScenario("Open.Progress", [LoadSimulation.Inject(50, TimeSpan.FromSeconds(2.5))], async (context, ct) =>
        {
            if (context.Request == 124)
            {
                await twoLines.Task.WaitAsync(TimeSpan.FromSeconds(30), ct);
            }

            return LoadStepOutcome.Success();
        })
        {
            Progress = p =>
            {
                lock (lines)
                {
                    lines.Add(p);
                    if (lines.Count == 2)
                    {
                        twoLines.TrySetResult();
                    }
                }
            },
            Drain = TimeSpan.FromSeconds(60),
        };

        var clock = Stopwatch.StartNew();
        var result = await LoadRunner.RunAsync(scenario, Token);
        var seconds = clock.Elapsed.TotalSeconds;
        LoadProgress[] seen;
        lock (lines)
        {
            seen = [.. lines];
        }

        result.Failed.Should().Be(0, "two progress lines came before the last request gave up waiting for them");
        seen.Length.Should().BeGreaterThanOrEqualTo(2, "a 2.5 s run reports at 1 s and 2 s");
        // A line is due every second of the run and none comes early, however late a busy machine runs them.
        seen.Length.Should().BeLessThanOrEqualTo((int)seconds, "one line a second at most ({0:0.00} s run)", seconds);
        seen.Select((p, i) => p.Elapsed.TotalSeconds - (i + 1)).Should().OnlyContain(early => early > -0.05, "line k comes k seconds into the run or later");
        seen[1].Requests.Should().BeGreaterThan(seen[0].Requests);
        var text = seen[1].ToString();
        text.Should().MatchRegex(@"^Open\.Progress +\d+/3 s \[open 50 req/s for 2\.5 s\] requests=");
        int.Parse(text["Open.Progress".Length..text.IndexOf('/', StringComparison.Ordinal)].Trim(), System.Globalization.CultureInfo.InvariantCulture)
            .Should().Be((int)Math.Round(seen[1].Elapsed.TotalSeconds, MidpointRounding.AwayFromZero), "the line shows its own time into the run");
    }

    private static void InterlockedMax(ref int target, int value)
    {
        int current;
        while (value > (current = Volatile.Read(ref target)) && Interlocked.CompareExchange(ref target, value, current) != current)
        {
        }
    }
}
