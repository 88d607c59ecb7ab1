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
    public async Task A_closed_ramp_runs_only_the_copies_its_value_allows()
    {
        // The ramp runs copy i once 1 + 1.5t > i, t in seconds: copy 1 from 0 s, copy 2 from 2/3 s, copy 3 from 4/3 s,
        // each with 2/3 s to start before the ramp ends (1/3 s was too little beside the rest of the suite: copy 3 once
        // never started). When each copy first ran is exact on a busy machine too (a copy can start late, never early);
        // how many ran at once is not, so it is bounded from above only.
        var clock = Stopwatch.StartNew();
        var firstStart = new double?[4];
        var running = 0;
        var peak = 0;
        var scenario = new LoadScenario("Closed.Ramp", [LoadSimulation.RampingConstant(1, 4, TimeSpan.FromSeconds(2)), LoadSimulation.KeepConstant(2, TimeSpan.FromSeconds(0.5))], async (context, ct) =>
        {
            var now = Interlocked.Increment(ref running);
            InterlockedMax(ref peak, now);
            lock (firstStart)
            {
                firstStart[context.Copy] ??= clock.Elapsed.TotalSeconds;
            }

            await Task.Delay(5, ct);
            Interlocked.Decrement(ref running);
            return LoadStepOutcome.Success();
        });

        var result = await LoadRunner.RunAsync(scenario, Token);

        firstStart.Should().OnlyContain(t => t.HasValue, "every copy of the ramp ran before it ended");
        firstStart[2].Should().BeGreaterThanOrEqualTo(2.0 / 3, "copy 2 waits until the ramp passes 2");
        firstStart[3].Should().BeGreaterThanOrEqualTo(4.0 / 3, "copy 3 waits until the ramp passes 3");
        peak.Should().BeLessThanOrEqualTo(4, "the ramp never runs more than 4 copies");
        result.Copies.Should().Be(4);
        result.Completed.Should().BeGreaterThan(10, "copies ran all along the ramp and the phase after it (a 5 ms step, slower when the suite runs beside other tests)");
        result.PeakInFlight.Should().BeInRange(peak, 4, "the runner counts a request from just before its step to just after it");
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
        lines.Count.Should().BeInRange(2, 3, "a 2.5 s run reports at 1 s and 2 s (and at 3 s if its end is late)");
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
