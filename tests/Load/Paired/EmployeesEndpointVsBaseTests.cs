using System.Text.Json;
using SystemUnderTest.Json;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace Load.Paired;

/// <summary>
/// GET /api/employees?count=9 on the base commit's build and on this one, both as shipped in processes of their own,
/// loaded in alternating short rounds by the same generator: throughput, server CPU per request and p99 as head ÷ base.
/// </summary>
public sealed class EmployeesEndpointVsBaseTests(ITestOutputHelper output)
{
    private const string Rate = "Json.Endpoint.Employees9.RequestsPerSecond.VsBase";
    private const string Cpu = "Json.Endpoint.Employees9.ServerCpuPerRequest.VsBase";
    private const string P99 = "Json.Endpoint.Employees9.P99Ms.VsBase";

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Json_Endpoint_Employees9_against_its_base()
    {
        if (VsBase.AppOrNotMeasured(_gate, (Rate, PairedHttpLoad.RateFigure), (Cpu, PairedHttpLoad.CpuFigure), (P99, PairedHttpLoad.P99Figure)) is not (var baseAssembly, var baseDescription))
        {
            return;
        }

        var expected = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        // A broken budget names the methods that grew: one profile of each app, shared by the budgets that broke.
        var grown = new Lazy<Attribution>(() => PairedAppLoad.ProfileAgainstBase(baseAssembly, withEchoService: false,
            (app, _) => Task.FromResult(new HttpClient { BaseAddress = app.BaseAddress }),
            async (client, ct) => Check(await GetAsync(client, expected, ct))));
        // One pair's interval covers its rounds' noise, not the pair of processes' own luck: a break is confirmed over
        // fresh pairs, pooled (Load.Paired.Attempts, Load.Paired.ConfirmingProcessPairs).
        await _gate.CheckRunAsync(
            PairedAppLoad.FirstPairThenPooled(_gate, output,
                () => PairedAppLoad.CompareAsync(_gate, output, baseAssembly, withEchoService: false, e => (client, ct) => GetAsync(client, e, ct), expected),
                c => [c.RequestsPerSecond, c.CpuPerRequest, c.P99],
                pooled => new PairedHttpComparison(pooled[0], pooled[1], pooled[2])),
            comparison =>
            [
                _gate.VsBaseCheck(Rate, comparison.RequestsPerSecond.WithBase(baseDescription)) with { Diagnose = () => grown.Value },
                _gate.VsBaseCheck(Cpu, comparison.CpuPerRequest.WithBase(baseDescription)) with { Diagnose = () => grown.Value },
                _gate.VsBaseCheck(P99, comparison.P99.WithBase(baseDescription)) with { Diagnose = () => grown.Value },
            ],
            _gate.Book.IntParameter("Load.Paired.Attempts"));
    }

    private static void Check(bool answered)
    {
        if (!answered)
        {
            throw new InvalidOperationException("GET /api/employees?count=9 did not answer 2xx with the expected list while its app was profiled.");
        }
    }

    private static async Task<bool> GetAsync(HttpClient client, byte[] expected, CancellationToken cancellationToken)
    {
        using var response = await client.GetAsync("api/employees?count=9", cancellationToken);
        return response.IsSuccessStatusCode && (await response.Content.ReadAsByteArrayAsync(cancellationToken)).AsSpan().SequenceEqual(expected);
    }
}
