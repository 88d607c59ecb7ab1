using PerfBudgets;
using PerfBudgets.Load;

namespace Load;

/// <summary>
/// The open-model SLO check every such budget shares: a warm-up and a measured phase at one fixed arrival rate
/// (budgets.json Load.Open.*), then the scenario's three budgets, <c>NAME.FailedRequests</c>,
/// <c>NAME.AchievedRateRatio</c> and <c>NAME.P99Ms</c>.
/// </summary>
internal static class OpenModelSlo
{
    public static Task CheckAsync(BudgetGate gate, ITestOutputHelper output, string name, double requestsPerSecond, Func<LoadStepContext, CancellationToken, ValueTask<LoadStepOutcome>> step)
    {
        // Requests arrive at a fixed rate whatever the server does, and latency counts from each one's due time: the
        // SLO form "p99 ≤ X ms at R req/s". A slower server queues, and the queue shows in the p99.
        var scenario = new LoadScenario(name,
            [
                LoadSimulation.Inject(requestsPerSecond, TimeSpan.FromSeconds(gate.Book.Parameter("Load.Open.WarmUpSeconds"))).AsWarmUp(),
                LoadSimulation.Inject(requestsPerSecond, TimeSpan.FromSeconds(gate.Book.Parameter("Load.Open.DurationSeconds"))),
            ],
            step)
        {
            Progress = LoadProgressLog.To(output),
        };

        // A busy neighbour adds latency to one run and not the next; a slower server adds it to every run.
        return gate.CheckRunAsync(
            async () =>
            {
                var result = await LoadRunner.RunAsync(scenario, TestContext.Current.CancellationToken);
                output.WriteLine(result.ToString());
                gate.RecordLoad(result);
                return result;
            },
            result =>
            [
                new BudgetCheck($"{name}.FailedRequests", result.Failed, result.ErrorSummary()),
                new BudgetCheck($"{name}.AchievedRateRatio", result.AchievedRateRatio, result.ToString()),
                new BudgetCheck($"{name}.P99Ms", result.P99Ms, result.ToString()),
            ],
            gate.Book.IntParameter("Load.Attempts"));
    }
}
