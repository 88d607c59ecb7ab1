using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Load;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests;

public sealed class BudgetGateRunAttemptsTests : IDisposable
{
    private readonly TestBudgets _budgets = new("run-attempts");
    private readonly BudgetGate _gate;

    // The neighbours' share is the test's to say: none here, whatever the machine is doing.
    public BudgetGateRunAttemptsTests()
    {
        _gate = _budgets.Gate(options: new BudgetGateOptions { NeighbourWindow = () => () => null });
    }

    private BudgetGate GateBeside(params double?[] shares)
    {
        var next = new Queue<double?>(shares);
        return _budgets.Gate(options: new BudgetGateOptions { NeighbourWindow = () => () => next.Dequeue() });
    }

    public void Dispose() => _budgets.Dispose();

    [Fact]
    public async Task A_latency_broken_by_one_noisy_run_passes_on_the_next()
    {
        var runs = new Queue<double>([180, 20]);

        var results = await _gate.CheckRunAsync(() => Task.FromResult(runs.Dequeue()), p99 => [new BudgetCheck("Run.P99Ms", p99), new BudgetCheck("Run.FailedRequests", 0)], maxAttempts: 3);

        runs.Should().BeEmpty("the second run met every budget, so there was no third");
        results.Single(r => r.Budget == "Run.P99Ms").Detail.Should().Be("attempt 2 of 3, earlier attempts broke Run.P99Ms = 180");
    }

    [Fact]
    public async Task A_latency_broken_in_every_run_fails_listing_every_attempt()
    {
        var runs = new Queue<double>([180, 95, 120]);

        var act = () => _gate.CheckRunAsync(() => Task.FromResult(runs.Dequeue()), p99 => [new BudgetCheck("Run.P99Ms", p99)], maxAttempts: 3);

        (await act.Should().ThrowAsync<BudgetExceededException>()).Which.Message.Should()
            .Be("Run.P99Ms: 120 ms > budget 50 (+140%) [attempt 3 of 3, earlier attempts broke Run.P99Ms = 180 / Run.P99Ms = 95]");
    }

    [Fact]
    public async Task Blocked_time_broken_by_one_window_is_confirmed_by_the_next_before_it_fails()
    {
        var windows = new Queue<double>([0.019, 0.0004]);

        var results = await _gate.CheckRunAsync(() => Task.FromResult(windows.Dequeue()), blocked => [new BudgetCheck("Run.BlockedMsPerRequest", blocked)], maxAttempts: 2);

        windows.Should().BeEmpty();
        results.Single().Detail.Should().Be("attempt 2 of 2, earlier attempts broke Run.BlockedMsPerRequest = 0.019");

        var blockedEveryTime = new Queue<double>([1.2, 1.1]);
        var act = () => _gate.CheckRunAsync(() => Task.FromResult(blockedEveryTime.Dequeue()), blocked => [new BudgetCheck("Run.BlockedMsPerRequest", blocked)], maxAttempts: 2);
        (await act.Should().ThrowAsync<BudgetExceededException>()).Which.Message.Should()
            .StartWith("Run.BlockedMsPerRequest: 1.1 ms/request > budget 0.01").And.Contain("attempt 2 of 2, earlier attempts broke Run.BlockedMsPerRequest = 1.2");
    }

    [Fact]
    public async Task A_timed_budget_broken_beside_busy_neighbours_in_its_last_attempt_is_not_measured_saying_so()
    {
        var runs = new Queue<double>([180, 170]);

        var act = () => GateBeside(0.6, 0.55).CheckRunAsync(() => Task.FromResult(runs.Dequeue()), p99 => [new BudgetCheck("Run.P99Ms", p99), new BudgetCheck("Run.FailedRequests", 0)], maxAttempts: 2);

        (await act.Should().ThrowAsync<BudgetNotMeasuredException>()).Which.Message.Should()
            .StartWith("Run.P99Ms: not measured (other processes took 55% of the machine's CPU while it was measured (more than 25%)")
            .And.Contain("it read 170 ms against 50 in its last attempt")
            .And.Contain("earlier attempts broke Run.P99Ms = 180 (neighbours 60% of the CPU)");
        var recorded = ResultStore.ReadAll(_gate.Store.ResultsPath);
        recorded.Single(r => r.Budget == "Run.P99Ms").Verdict.Should().Be(BudgetVerdict.NotMeasured);
        recorded.Single(r => r.Budget == "Run.FailedRequests").Verdict.Should().Be(BudgetVerdict.Pass, "what met its budget is recorded as usual");
    }

    [Fact]
    public async Task A_timed_budget_broken_on_a_quiet_machine_in_its_last_attempt_fails_whatever_came_before()
    {
        var runs = new Queue<double>([180, 170]);

        var act = () => GateBeside(0.6, 0.05).CheckRunAsync(() => Task.FromResult(runs.Dequeue()), p99 => [new BudgetCheck("Run.P99Ms", p99)], maxAttempts: 2);

        (await act.Should().ThrowAsync<BudgetExceededException>()).Which.Message.Should().StartWith("Run.P99Ms: 170 ms > budget 50");
    }

    [Fact]
    public async Task Under_CI_a_timed_budget_broken_beside_busy_neighbours_fails_as_not_measured()
    {
        var gate = _budgets.Gate(options: new BudgetGateOptions { IsCi = true, NeighbourWindow = () => () => 0.7 });

        var act = () => gate.CheckRunAsync(() => Task.FromResult(170.0), p99 => [new BudgetCheck("Run.P99Ms", p99)], maxAttempts: 1);

        (await act.Should().ThrowAsync<BudgetExceededException>()).Which.Message.Should()
            .Contain("Run.P99Ms: not measured (other processes took 70% of the machine's CPU").And.Contain("under CI=true an unmeasured budget fails");
    }

    [Fact]
    public async Task Bytes_are_never_repeated_away()
    {
        var runs = 0;

        var act = () => _gate.CheckRunAsync(() => Task.FromResult(++runs), _ => [new BudgetCheck("Run.BytesPerOp", 120)], maxAttempts: 3);

        await act.Should().ThrowAsync<BudgetExceededException>();
        runs.Should().Be(1, "an allocation is a property of the code, not of the machine");
    }

    [Fact]
    public async Task A_failed_request_is_never_repeated_away()
    {
        var runs = 0;

        var act = () => _gate.CheckRunAsync(() => Task.FromResult(++runs), _ => [new BudgetCheck("Run.P99Ms", 180), new BudgetCheck("Run.FailedRequests", 1, "1× status 500")], maxAttempts: 3);

        (await act.Should().ThrowAsync<BudgetExceededException>()).Which.Message.Should().Contain("Run.FailedRequests: 1 requests > budget 0");
        runs.Should().Be(1);
    }

    [Fact]
    public void A_load_run_is_written_to_the_loads_of_results_json_beside_the_budgets()
    {
        var result = new LoadResult
        {
            Scenario = "Run.Open", Model = "open", Phases = "open 100 req/s for 2 s", Copies = 0, TargetRate = 100, MeasuredSeconds = 2,
            Scheduled = 200, Requests = 200, Completed = 199, Failed = 1, NotSent = 0, Abandoned = 0,
            P50Ms = 1, P75Ms = 2, P90Ms = 3, P95Ms = 4, P99Ms = 5, MaxMs = 6, ScheduleLagP99Ms = 0.5, PeakInFlight = 3,
            RequestsPerSecondBuckets = [100, 99], StatusCodes = new Dictionary<int, long> { [200] = 199, [500] = 1 },
            BytesSent = 0, BytesReceived = 1990, Errors = new Dictionary<string, long> { ["status 500"] = 1 },
        };

        _gate.Check("Run.P99Ms", 5);
        var before = DateTimeOffset.UtcNow;
        _gate.RecordLoad(result);
        var after = DateTimeOffset.UtcNow;
        _gate.Check("Run.FailedRequests", 0);

        var loads = ResultStore.ReadLoads(_gate.Store.ResultsPath, out var skipped);
        skipped.Should().Be(0);
        loads.Should().ContainSingle().Which.Should().BeEquivalentTo(result, o => o.Excluding(l => l.TimestampUtc).Excluding(l => l.Machine));
        loads[0].RequestsPerSecond.Should().Be(99.5);
        loads[0].Machine.Should().Be(MachineInfo.Current, "the gate stamps where it was recorded");
        loads[0].TimestampUtc.Should().NotBeNull().And.BeOnOrAfter(before.AddSeconds(-1)).And.BeOnOrBefore(after.AddSeconds(1),
            "the gate stamps when it was recorded (to the second, as written)");
        ResultStore.ReadAll(_gate.Store.ResultsPath).Select(r => r.Budget).Should().Equal("Run.FailedRequests", "Run.P99Ms");

        // The names results.json has always had, so that an older reader reads it.
        var text = System.IO.File.ReadAllText(_gate.Store.ResultsPath);
        foreach (var field in new[] { "\"achievedRate\": 99.5", "\"requests\": 200", "\"ok\": 199", "\"latencyMs\": {", "\"p99\": 5", "\"rpsPerSecond\": [", "\"200\": 199", "\"status 500\": 1", "\"scheduleLagP99Ms\": 0.5", "\"machine\": {" })
        {
            text.Should().Contain(field);
        }
    }
}
