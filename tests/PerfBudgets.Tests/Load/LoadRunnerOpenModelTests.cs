using System.Diagnostics;
using PerfBudgets.Load;

namespace PerfBudgets.Tests.Load;

/// <summary>The open model's schedule and bookkeeping, on steps that need no server (a class of its own: these wait, and run beside <see cref="LoadRunnerTests"/>).</summary>
public sealed class LoadRunnerOpenModelTests
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
        // The rate counts answers that end inside the window: the window's last answers end after it, and warm-up
        // answers that a late scheduler wake-up or a slow step pushed past its start end inside it. The warm-up sends
        // 25 (100 req/s for 0.25 s), so up to 25 more than the 400 due, and a few fewer at the end (a run beside the
        // Cake build counted 423: 1.0575).
        result.AchievedRateRatio.Should().BeInRange(0.95, (400 + 25 + 5) / 400.0);
        result.NotSent.Should().Be(0);
        result.Failed.Should().Be(0);
        result.StatusCodes.Should().Equal(new Dictionary<int, long> { [200] = 400 });
        result.BytesSent.Should().Be(4_000);
        result.BytesReceived.Should().Be(40_000);
        result.RequestsPerSecondBuckets.Should().HaveCount(1);
        result.RequestsPerSecondBuckets.Sum().Should().BeInRange(380, 430, "the buckets hold what ended inside the window: the 400 due in it, a few fewer at its end, and up to the warm-up's 25 pushed into it");
        result.P50Ms.Should().BeGreaterThanOrEqualTo(1);
    }

    [Fact]
    public async Task Latency_counts_from_the_intended_start_so_a_stall_is_not_hidden()
    {
        // Every request waits for one gate, which the 50th request opens as it starts: the 50 due in the first 490 ms
        // all end when it opens, so the first one's latency is at least 490 ms even though it was sent on time (request
        // 50 never starts before its due time, however late a busy machine runs it). A runner that stopped sending
        // while requests wait never opens the gate, and its requests are cut off by the drain.
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var started = 0;
        var scenario = new LoadScenario("Open.Stall", [LoadSimulation.Inject(100, TimeSpan.FromSeconds(1))], async (_, ct) =>
        {
            if (Interlocked.Increment(ref started) == 50)
            {
                gate.SetResult();
            }

            await gate.Task.WaitAsync(ct);
            return LoadStepOutcome.Success();
        })
        {
            Drain = TimeSpan.FromSeconds(10),
        };

        var result = await LoadRunner.RunAsync(scenario, Token);

        result.Completed.Should().Be(100);
        result.MaxMs.Should().BeGreaterThan(400);
        result.P50Ms.Should().BeLessThan(result.MaxMs);
        result.PeakInFlight.Should().BeGreaterThanOrEqualTo(50, "requests kept starting on schedule while the first ones waited: 50 were in flight when the gate opened");
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
}
