using System.Globalization;
using PerfBudgets;
using PerfBudgets.Budgets;

namespace Load.Api;

/// <summary>
/// The async delay endpoint must never hold a pool thread while it waits: its pool threads' blocked time and lock
/// contentions per request, on the fixed-pool server (<see cref="BlockingCheck"/>).
/// </summary>
public sealed class DelayApiBlockingTests(FixedPoolServer server, ITestOutputHelper output)
{
    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Api_DelayAsync_never_blocks_a_pool_thread()
    {
        var app = await BlockingCheck.ServerAsync(server, _gate, "Api.DelayAsync", "request");
        var copies = _gate.Book.IntParameter("Load.Blocking.Copies");
        var ms = _gate.Book.IntParameter("Load.Blocking.Api.DelayMs");
        var path = string.Create(CultureInfo.InvariantCulture, $"api/delay/async?ms={ms}");
        var expected = string.Create(CultureInfo.InvariantCulture, $"Hello World,{ms}");
        using var client = LoadClient.Create(app.BaseAddress, copies);

        await BlockingCheck.CheckAsync(_gate, output, app, "Api.DelayAsync", "request", async (_, ct) =>
        {
            using var response = await client.GetAsync(path, ct);
            return response.IsSuccessStatusCode && await response.Content.ReadAsStringAsync(ct) == expected;
        });
    }
}
