using System.Diagnostics;
using PerfBudgets.Load;

namespace PerfGate.Tests.Correctness.PerfBudgets;

/// <summary>The runner's bookkeeping, on steps that need no server; the load suite measures real servers.</summary>
public sealed class LoadRunnerTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task An_open_phase_sends_its_schedule_and_reports_the_achieved_rate()
    {
        var scenario = new LoadScenario("Open.Fake", [LoadSimulation.Inject(100, TimeSpan.FromSeconds(0.25)).AsWarmUp(), LoadSimulation.Inject(400, TimeSpan.FromSeconds(1))],
            async (context, ct) =>
            {
                await Task.Delay(1, ct);
                return LoadStepOutcome.Success(200, 10, 100);
            });

        var result = await LoadRunner.RunAsync(scenario, Token);

        result.Model.Should().Be("open");
        result.Scheduled.Should().Be(400, "400 req/s for 1 s are due in the measured phase");
        result.TargetRate.Should().Be(400);
        result.Completed.Should().Be(400);
        result.AchievedRateRatio.Should().BeInRange(0.97, 1, "the requests due in the last milliseconds end after the window");
        result.NotSent.Should().Be(0);
        result.Failed.Should().Be(0);
        result.StatusCodes.Should().Equal(new Dictionary<int, long> { [200] = 400 });
        result.BytesSent.Should().Be(4_000);
        result.BytesReceived.Should().Be(40_000);
        result.RequestsPerSecondBuckets.Should().HaveCount(1);
        result.RequestsPerSecondBuckets.Sum().Should().BeInRange(390, 400, "completions after the window are in the total, not in a bucket");
        result.P50Ms.Should().BeGreaterThanOrEqualTo(1);
    }

    [Fact]
    public async Task Latency_counts_from_the_intended_start_so_a_stall_is_not_hidden()
    {
        // Every request waits for one gate that opens 500 ms into the measured phase: the requests due while it is
        // shut all end when it opens, so the first one's latency is the whole 500 ms even though it was sent on time.
        var gate = new TaskCompletionSource();
        var scenario = new LoadScenario("Open.Stall", [LoadSimulation.Inject(100, TimeSpan.FromSeconds(1))], async (_, ct) =>
        {
            await gate.Task.WaitAsync(ct);
            return LoadStepOutcome.Success();
        });

        var run = LoadRunner.RunAsync(scenario, Token);
        await Task.Delay(500, Token);
        gate.SetResult();
        var result = await run;

        result.Completed.Should().Be(100);
        result.MaxMs.Should().BeGreaterThan(400);
        result.P50Ms.Should().BeLessThan(result.MaxMs);
        result.PeakInFlight.Should().BeGreaterThanOrEqualTo(40, "requests kept starting on schedule while the first ones waited");
    }

    [Fact]
    public async Task Requests_over_the_in_flight_bound_are_counted_as_not_sent()
    {
        var scenario = new LoadScenario("Open.Bounded", [LoadSimulation.Inject(200, TimeSpan.FromSeconds(1))], async (_, ct) =>
        {
            await Task.Delay(TimeSpan.FromSeconds(5), ct);
            return LoadStepOutcome.Success();
        })
        {
            MaxInFlight = 10,
            Drain = TimeSpan.FromMilliseconds(100),
        };

        var result = await LoadRunner.RunAsync(scenario, Token);

        result.Scheduled.Should().Be(200);
        result.NotSent.Should().Be(190, "10 requests were in flight and never ended, so the other 190 could not start");
        result.Abandoned.Should().Be(10, "the drain cut off the ten that hung");
        result.Completed.Should().Be(0);
        result.ToString().Should().Contain("not sent=190");
    }

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
    public async Task A_closed_ramp_runs_only_the_copies_its_value_allows()
    {
        var running = 0;
        var peak = 0;
        var scenario = new LoadScenario("Closed.Ramp", [LoadSimulation.RampingConstant(1, 4, TimeSpan.FromSeconds(1)), LoadSimulation.KeepConstant(2, TimeSpan.FromSeconds(0.5))], async (context, ct) =>
        {
            var now = Interlocked.Increment(ref running);
            InterlockedMax(ref peak, now);
            await Task.Delay(5, ct);
            Interlocked.Decrement(ref running);
            return LoadStepOutcome.Success();
        });

        var result = await LoadRunner.RunAsync(scenario, Token);

        peak.Should().BeInRange(3, 4, "the ramp reaches 4 copies only at its very end");
        result.Copies.Should().Be(4);
        result.Completed.Should().BeGreaterThan(10, "copies ran all along the ramp and the phase after it (a 5 ms step, slower when the suite runs beside other tests)");
        result.PeakInFlight.Should().Be(peak);
    }

    [Fact]
    public async Task Progress_is_reported_once_a_second_while_the_scenario_runs()
    {
        var lines = new List<LoadProgress>();
        var scenario = new LoadScenario("Open.Progress", [LoadSimulation.Inject(50, TimeSpan.FromSeconds(2.5))], (_, _) => ValueTask.FromResult(LoadStepOutcome.Success()))
        {
            Progress = p => { lock (lines) { lines.Add(p); } },
        };

        var clock = Stopwatch.StartNew();
        await LoadRunner.RunAsync(scenario, Token);

        clock.Elapsed.Should().BeLessThan(TimeSpan.FromSeconds(4));
        lines.Should().HaveCount(2, "a 2.5 s run reports at 1 s and 2 s");
        lines[1].Requests.Should().BeGreaterThan(lines[0].Requests);
        lines[1].ToString().Should().StartWith("Open.Progress     2/3 s [open 50 req/s for 2.5 s] requests=");
    }

    private static void InterlockedMax(ref int target, int value)
    {
        int current;
        while (value > (current = Volatile.Read(ref target)) && Interlocked.CompareExchange(ref target, value, current) != current)
        {
        }
    }
}
