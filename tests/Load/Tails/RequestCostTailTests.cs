using System.Text.Json;
using SystemUnderTest.Json;
using SystemUnderTest.Sockets.Echo;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Load;
using PerfBudgets.Measuring;

namespace Load.Tails;

/// <summary>
/// Per-request CPU budgets (<c>p99-to-p50-cpu-per-request-max</c>): requests one at a time on one keep-alive
/// connection, each one's server CPU time on its path measured on its own (<see cref="RequestCostMeter"/>), the p99 over
/// the p50 gated. One slow request in fifty moves the p99 by its whole extra cost, where a latency p99 under load or the
/// smallest counted round does not see it; as a multiple of the typical request it holds on a faster or slower machine
/// (docs/tails.md).
/// </summary>
public sealed class RequestCostTailTests(TailServer server, ITestOutputHelper output) : IClassFixture<TailServer>
{
    private static readonly byte[] List9 = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Json_Endpoint_Employees9_p99_server_CPU_per_request() =>
        CheckAsync("Json.Endpoint.Employees9.P99ToP50CpuPerRequest", "GET /api/employees?count=9", () => Http(new HttpKeepAliveProbe(server.App.EndPoint, "/api/employees?count=9"), List9));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Json_Endpoint_Echo9_p99_server_CPU_per_request() =>
        CheckAsync("Json.Endpoint.Echo9.P99ToP50CpuPerRequest", "POST /api/employees/echo (9 employees)", () => Http(new HttpKeepAliveProbe(server.App.EndPoint, "POST", "/api/employees/echo", "application/json", List9), List9));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Api_DelayAsync_p99_server_CPU_per_request() =>
        CheckAsync("Api.DelayAsync.P99ToP50CpuPerRequest", "GET /api/delay/async?ms=0", () => Http(new HttpKeepAliveProbe(server.App.EndPoint, "/api/delay/async?ms=0"), null));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Sockets_Echo_p99_server_CPU_per_frame() =>
        CheckAsync("Sockets.Echo.P99ToP50CpuPerRequest", "echo service, 1,000-byte frames", () =>
        {
            var client = EchoClient.Connect(server.App.EchoEndPoint!, 1_000, TimeSpan.FromSeconds(10));
            return (client.Echo, client);
        });

    // Every HTTP answer must be 200 (and the expected body, where there is one): a server that fails fast is not cheap.
    private static (Action Send, IDisposable Connection) Http(HttpKeepAliveProbe probe, byte[]? expected) => (() =>
    {
        var status = probe.Send();
        if (status != 200 || (expected is not null && !probe.LastBody.SequenceEqual(expected)))
        {
            throw new InvalidOperationException($"The server answered {status}{(status == 200 ? " with a wrong body" : string.Empty)}.");
        }
    }, probe);

    private async Task CheckAsync(string budgetName, string workload, Func<(Action Send, IDisposable Connection)> open)
    {
        if (RequestCostMeter.UnavailableReason(server.App.ProcessId) is { } reason)
        {
            _gate.NotMeasured(budgetName, reason);
            return;
        }

        var warmUp = _gate.Book.IntParameter("Load.Tails.WarmUpRequests");
        var requests = _gate.Book.IntParameter("Load.Tails.Requests");
        var timeLimit = TimeSpan.FromSeconds(_gate.Book.IntParameter("Load.Tails.MaxSecondsPerAttempt"));
        var minimum = _gate.Book.IntParameter("Load.Tails.MinimumRequests");
        var limit = _gate.Book.Get(budgetName).Limit;

        // Each attempt on a connection of its own, opened right before it, so none sits idle into the server's
        // keep-alive timeout. A run that breaks the budget is measured again (the kind counts as wall-clock).
        await _gate.CheckRunAsync(
            () => Task.Run(() =>
            {
                var (send, connection) = open();
                using (connection)
                {
                    var measurement = RequestCostMeter.Measure(workload, server.App.ProcessId, send, warmUp, requests, timeLimit);
                    output.WriteLine(measurement.ToString());
                    if (measurement.RequestCount < minimum)
                    {
                        // Too few for the p99 to mean a tail (the machine was too busy to let the server fall quiet).
                        _gate.NotMeasured(budgetName, $"{measurement.RequestCount:N0} requests measured within {timeLimit.TotalSeconds:0} s, fewer than the {minimum:N0} a p99 needs ({measurement.Note})");
                    }

                    output.WriteLine("  slowest: " + SlowRequestAttribution.From(measurement, limit * measurement.P50Milliseconds).Summary);
                    return measurement;
                }
            }),
            measurement =>
            [
                new BudgetCheck(budgetName, measurement.P99ToP50, measurement.ToString()) { Diagnose = () => SlowRequestAttribution.From(measurement, limit * measurement.P50Milliseconds) },
            ],
            _gate.Book.IntParameter("Load.Attempts"));
    }
}
