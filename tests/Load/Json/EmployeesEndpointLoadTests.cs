using System.Globalization;
using System.Text.Json;
using SystemUnderTest.Json;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Load;

namespace Load.Json;

public sealed class EmployeesEndpointLoadTests(FixedPoolServer server, ITestOutputHelper output)
{
    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Json_Endpoint_Employees9_under_load()
    {
        var copies = _gate.Book.IntParameter("Load.Json.Employees9.Copies");
        var warmUp = TimeSpan.FromSeconds(_gate.Book.Parameter("Load.WarmUpSeconds"));
        var duration = TimeSpan.FromSeconds(_gate.Book.Parameter("Load.DurationSeconds"));
        var expected = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        using var target = LoadTarget.Acquire();
        using var client = LoadClient.Create(target.BaseAddress, copies);

        // A request counts only when it answers 200 with exactly the 9-employee list.
        var scenario = new LoadScenario("Json.Endpoint.Employees9", copies, warmUp, duration, async (_, ct) =>
        {
            using var response = await client.GetAsync("api/employees?count=9", ct);
            return response.IsSuccessStatusCode && (await response.Content.ReadAsByteArrayAsync(ct)).AsSpan().SequenceEqual(expected);
        })
        {
            Progress = LoadProgressLog.To(output),
        };
        // Rate and p99 are wall-clock figures: a busy neighbour lowers one run, a slower server every run, so a run that
        // breaks only those is repeated (Load.Attempts); a wrong or failed answer fails at once.
        long completed = 0;
        await _gate.CheckRunAsync(
            async () =>
            {
                var result = await LoadRunner.RunAsync(scenario, TestContext.Current.CancellationToken);
                output.WriteLine(result.ToString());
                _gate.RecordLoad(result);
                completed = result.Completed;
                return result;
            },
            result =>
            [
                new BudgetCheck("Json.Endpoint.Employees9.FailedRequests", result.Failed, string.Join(" | ", result.FirstErrors)),
                new BudgetCheck("Json.Endpoint.Employees9.RequestsPerSecond", result.RequestsPerSecond, result.ToString()),
                new BudgetCheck("Json.Endpoint.Employees9.P99Ms", result.P99Ms, result.ToString()),
            ],
            _gate.Book.IntParameter("Load.Attempts"));
        completed.Should().BeGreaterThan(0, string.Create(CultureInfo.InvariantCulture, $"the load ran for {duration.TotalSeconds} s"));
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Json_Endpoint_Employees9_open_model_meets_its_SLO()
    {
        var rate = _gate.Book.Parameter("Load.Json.Employees9.Open.RequestsPerSecond");
        var expected = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        var target = await server.TargetAsync(TestContext.Current.CancellationToken);
        using var client = LoadClient.Create(target, _gate.Book.IntParameter("Load.Open.MaxConnections"));

        await OpenModelSlo.CheckAsync(_gate, output, "Json.Endpoint.Employees9.Open", rate, HttpLoadStep.Get(client, "api/employees?count=9", expected));
    }
}
