using System.Net.Http.Headers;
using System.Text.Json;
using SystemUnderTest.Json;
using PerfBudgets;
using PerfBudgets.Budgets;

namespace Load.Json;

/// <summary>
/// The JSON endpoints must never hold a pool thread in a wait: blocked time and lock contentions per request of
/// <c>GET /api/employees?count=9</c> and <c>POST /api/employees/echo</c>, on the fixed-pool server
/// (<see cref="BlockingCheck"/>).
/// </summary>
public sealed class EmployeesEndpointBlockingTests(FixedPoolServer server, ITestOutputHelper output)
{
    private static readonly byte[] Employees9 = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Json_Endpoint_Employees9_never_blocks_a_pool_thread()
    {
        var app = await BlockingCheck.ServerAsync(server, _gate, "Json.Endpoint.Employees9", "request");
        using var client = LoadClient.Create(app.BaseAddress, _gate.Book.IntParameter("Load.Blocking.Copies"));

        await BlockingCheck.CheckAsync(_gate, output, app, "Json.Endpoint.Employees9", "request", async (_, ct) =>
        {
            using var response = await client.GetAsync("api/employees?count=9", ct);
            return response.IsSuccessStatusCode && (await response.Content.ReadAsByteArrayAsync(ct)).AsSpan().SequenceEqual(Employees9);
        });
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Json_Endpoint_Echo9_never_blocks_a_pool_thread()
    {
        var app = await BlockingCheck.ServerAsync(server, _gate, "Json.Endpoint.Echo9", "request");
        using var client = LoadClient.Create(app.BaseAddress, _gate.Book.IntParameter("Load.Blocking.Copies"));

        // The 9-employee list goes in and must come back byte for byte.
        await BlockingCheck.CheckAsync(_gate, output, app, "Json.Endpoint.Echo9", "request", async (_, ct) =>
        {
            using var body = new ByteArrayContent(Employees9);
            body.Headers.ContentType = new MediaTypeHeaderValue("application/json");
            using var response = await client.PostAsync("api/employees/echo", body, ct);
            return response.IsSuccessStatusCode && (await response.Content.ReadAsByteArrayAsync(ct)).AsSpan().SequenceEqual(Employees9);
        });
    }
}
