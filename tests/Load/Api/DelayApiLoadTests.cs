using System.Globalization;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Load;

namespace Load.Api;

public sealed class DelayApiLoadTests(FixedPoolServer server, ITestOutputHelper output)
{
    private readonly BudgetGate _gate = SuiteGate.Current;

    private TimeSpan WarmUp => TimeSpan.FromSeconds(_gate.Book.Parameter("Load.WarmUpSeconds"));

    private TimeSpan Duration => TimeSpan.FromSeconds(_gate.Book.Parameter("Load.DurationSeconds"));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Api_DelayAsync_under_load_stays_near_the_Little_law_limit()
    {
        var copies = _gate.Book.IntParameter("Load.Api.DelayAsync.Copies");
        var delay = TimeSpan.FromMilliseconds(_gate.Book.IntParameter("Load.Api.DelayAsync.DelayMs"));
        using var client = LoadClient.Create(await server.TargetAsync(TestContext.Current.CancellationToken), copies);

        // Efficiency and p99 are wall-clock figures: a busy neighbour lowers one run, a slower server every run, so a
        // run that breaks only those is repeated (Load.Attempts); a failed request fails at once.
        await _gate.CheckRunAsync(
            async () =>
            {
                var result = await RunAsync(client, "Api.DelayAsync", "async", copies, delay);
                _gate.Observe("Api.DelayAsync.RequestsPerSecond", result.RequestsPerSecond, "req/s", result.ToString());
                return result;
            },
            result =>
            [
                new BudgetCheck("Api.DelayAsync.FailedRequests", result.Failed, string.Join(" | ", result.FirstErrors)),
                // Little's law: copies requests each taking `delay` can complete at most copies ÷ delay per second.
                new BudgetCheck("Api.DelayAsync.LittleEfficiency", result.LittleEfficiency(delay), string.Create(CultureInfo.InvariantCulture,
                    $"{result.RequestsPerSecond:N0} req/s of {copies / delay.TotalSeconds:N0} ideal, {copies} copies x {delay.TotalMilliseconds} ms")),
                new BudgetCheck("Api.DelayAsync.P99Ms", result.P99Ms, result.ToString()),
            ],
            _gate.Book.IntParameter("Load.Attempts"));
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Api_async_serves_many_times_the_blocking_rate_at_the_seed_shape()
    {
        var copies = _gate.Book.IntParameter("Load.Api.AsyncVsBlocking.Copies");
        var delay = TimeSpan.FromMilliseconds(_gate.Book.IntParameter("Load.Api.AsyncVsBlocking.DelayMs"));
        // The ratio is a wall-clock figure: a run that breaks only it is repeated (Load.Attempts), each attempt on a
        // server of its own, since the blocking run grows its thread pool and would change the next attempt.
        await _gate.CheckRunAsync(
            async () =>
            {
                // The server runs in a process of its own: blocked pool threads in the server must not also starve the
                // load generator's socket completions, or the run measures the generator (as it would with NBomber, wrk).
                using var server = LoadTarget.IsExternal ? null : await AppProcess.StartAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken);
                using var client = LoadClient.Create(server?.BaseAddress ?? LoadTarget.ExternalBaseAddress!, copies);

                // Async first: the blocking run grows the thread pool, which would flatter an async run after it.
                var asyncRun = await RunAsync(client, "Api.AsyncVsBlocking.Async", "async", copies, delay);
                var blockingRun = await RunAsync(client, "Api.AsyncVsBlocking.Blocking", "blocking", copies, delay);
                _gate.Observe("Api.AsyncVsBlocking.AsyncRequestsPerSecond", asyncRun.RequestsPerSecond, "req/s", asyncRun.ToString());
                _gate.Observe("Api.AsyncVsBlocking.BlockingRequestsPerSecond", blockingRun.RequestsPerSecond, "req/s", blockingRun.ToString());
                // Timeouts on the blocking endpoint are the collapse this scenario demonstrates; they are reported, not gated.
                _gate.Observe("Api.AsyncVsBlocking.BlockingFailedRequests", blockingRun.Failed, "requests", string.Join(" | ", blockingRun.FirstErrors));
                return (Async: asyncRun, Blocking: blockingRun);
            },
            runs =>
            {
                // At this shape on 2 cores the blocking endpoint may complete nothing inside a short window (its thread
                // pool grows by hill climbing, far slower than 1,000 requests arrive); the denominator is then taken as
                // one request per window, so the ratio is a lower bound rather than a division by zero.
                var blockingFloor = 1 / runs.Blocking.MeasuredSeconds;
                var ratio = runs.Async.RequestsPerSecond / Math.Max(runs.Blocking.RequestsPerSecond, blockingFloor);
                return
                [
                    new BudgetCheck("Api.AsyncVsBlocking.AsyncFailedRequests", runs.Async.Failed, string.Join(" | ", runs.Async.FirstErrors)),
                    new BudgetCheck("Api.AsyncVsBlocking.RpsRatio", ratio, string.Create(CultureInfo.InvariantCulture,
                        $"async {runs.Async.RequestsPerSecond:N0} req/s / blocking {runs.Blocking.RequestsPerSecond:N1} req/s ({runs.Blocking.Completed} completed in the window), {copies} copies x {delay.TotalMilliseconds} ms")),
                ];
            },
            _gate.Book.IntParameter("Load.Attempts"));
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Api_in_process_Task_Delay_outruns_Thread_Sleep_on_the_pool()
    {
        var requests = _gate.Book.IntParameter("Load.Api.InProcess.Requests");
        var ms = _gate.Book.IntParameter("Load.Api.InProcess.DelayMs");

        // A child process: this one's thread pool has been grown by earlier load and would flatter Thread.Sleep. A
        // ratio below its floor is measured again in a fresh process before it fails (a wall-clock kind).
        var (asyncRps, blockingRps) = (0.0, 0.0);
        await _gate.CheckRunAsync(
            async () => (asyncRps, blockingRps) = await RunDelayCompareAsync(requests, ms),
            rates => [new BudgetCheck("Api.InProcess.AsyncVsBlockingRatio", rates.Item1 / rates.Item2,
                string.Create(CultureInfo.InvariantCulture, $"{rates.Item1:N0} / {rates.Item2:N0} req/s, {requests} x {ms} ms"))]);

        _gate.Observe("Api.InProcess.AsyncRequestsPerSecond", asyncRps, "req/s");
        _gate.Observe("Api.InProcess.BlockingRequestsPerSecond", blockingRps, "req/s");
    }

    private async Task<LoadResult> RunAsync(HttpClient client, string name, string endpoint, int copies, TimeSpan delay)
    {
        var path = string.Create(CultureInfo.InvariantCulture, $"api/delay/{endpoint}?ms={(int)delay.TotalMilliseconds}");
        var expected = string.Create(CultureInfo.InvariantCulture, $"Hello World,{(int)delay.TotalMilliseconds}");
        var scenario = new LoadScenario(name, copies, WarmUp, Duration, async (_, ct) =>
        {
            using var response = await client.GetAsync(path, ct);
            return response.IsSuccessStatusCode && await response.Content.ReadAsStringAsync(ct) == expected;
        })
        {
            Progress = LoadProgressLog.To(output),
        };
        var result = await LoadRunner.RunAsync(scenario, TestContext.Current.CancellationToken);
        output.WriteLine(result.ToString());
        _gate.RecordLoad(result);
        return result;
    }

    private static async Task<(double AsyncRps, double BlockingRps)> RunDelayCompareAsync(int requests, int ms)
    {
        var (exitCode, text, error) = await AppProcess.RunCommandAsync(
            ["delay-compare", "--requests", requests.ToString(CultureInfo.InvariantCulture), "--ms", ms.ToString(CultureInfo.InvariantCulture)],
            TimeSpan.FromMinutes(2), TestContext.Current.CancellationToken);
        exitCode.Should().Be(0, error);
        var line = text.Split('\n').Single(l => l.StartsWith("result ", StringComparison.Ordinal));
        var values = line["result ".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries)
            .Select(kv => kv.Split('='))
            .ToDictionary(kv => kv[0], kv => double.Parse(kv[1], CultureInfo.InvariantCulture));
        return (values["async-rps"], values["blocking-rps"]);
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Api_DelayAsync_open_model_holds_its_p99_near_the_delay()
    {
        var rate = _gate.Book.Parameter("Load.Api.DelayAsync.Open.RequestsPerSecond");
        var delayMs = _gate.Book.IntParameter("Load.Api.DelayAsync.DelayMs");
        var expected = System.Text.Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $"Hello World,{delayMs}"));
        using var client = LoadClient.Create(await server.TargetAsync(TestContext.Current.CancellationToken), _gate.Book.IntParameter("Load.Open.MaxConnections"));

        // At a fixed arrival rate each request should take the endpoint's own delay and little more; a server that
        // blocks, spins or queues adds to every request due behind it, and the p99 (from the due time) shows it.
        var path = string.Create(CultureInfo.InvariantCulture, $"api/delay/async?ms={delayMs}");
        await OpenModelSlo.CheckAsync(_gate, output, "Api.DelayAsync.Open", rate, HttpLoadStep.Get(client, path, expected));
    }
}
