using System.Net.Http.Headers;
using System.Text.Json;
using SystemUnderTest.Json;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace Load.Wire;

/// <summary>
/// Bytes per response on the wire (<c>bytes-max</c>), the head and the body apart, for each HTTP request the suites
/// drive, read from a plain socket by <see cref="ResponseSizeMeter"/>: what every client pays for, which the server's
/// own figures (allocation, CPU) do not see. The counts are exact (the <c>Date</c> value has a fixed width), so each
/// limit is the count itself and one more byte in any response fails it; the detail lists every header line received.
/// </summary>
public sealed class ResponseSizeTests(WireServer server, ITestOutputHelper output) : IClassFixture<WireServer>
{
    // Each response is read this many times, each on a fresh connection: any difference fails before the budgets.
    private const int Reads = 3;

    private static readonly byte[] List9 = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Json_Endpoint_Employees9_response_size() =>
        CheckAsync("Json.Endpoint.Employees9", "GET /api/employees?count=9", () => new HttpRequestMessage(HttpMethod.Get, Address("api/employees?count=9")));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Json_Endpoint_Echo9_response_size() =>
        CheckAsync("Json.Endpoint.Echo9", "POST /api/employees/echo (9 employees)", () => new HttpRequestMessage(HttpMethod.Post, Address("api/employees/echo"))
        {
            Content = new ByteArrayContent(List9) { Headers = { ContentType = new MediaTypeHeaderValue("application/json") } },
        });

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Api_DelayAsync_response_size() =>
        CheckAsync("Api.DelayAsync", "GET /api/delay/async?ms=0", () => new HttpRequestMessage(HttpMethod.Get, Address("api/delay/async?ms=0")));

    private Uri Address(string relative) => new(server.App.BaseAddress, relative);

    private async Task CheckAsync(string scenario, string what, Func<HttpRequestMessage> request)
    {
        var ct = TestContext.Current.CancellationToken;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(TimeSpan.FromSeconds(30));
        var sizes = new List<ResponseSize>(Reads);
        for (var i = 0; i < Reads; i++)
        {
            using var message = request();
            sizes.Add(await ResponseSizeMeter.MeasureAsync(message, timeout.Token));
        }

        var size = sizes[0];
        foreach (var line in sizes.Select((s, i) => $"read {i + 1}: {s}"))
        {
            output.WriteLine(line);
        }

        Assert.True(size.StatusCode == 200, $"{what} answered {size}, not 200.");
        Assert.True(sizes.All(s => s.HeaderBytes == size.HeaderBytes && s.BodyBytes == size.BodyBytes && s.HeaderNames.SequenceEqual(size.HeaderNames)),
            $"{what}: the response size differs between reads, so it cannot be gated exactly:\n{string.Join('\n', sizes)}");

        var detail = $"{what}, read {Reads} times from a plain socket, identical: {size}; headers received: {string.Join(", ", size.HeaderNames)}; {server.App.SettingsNote}";
        _gate.CheckAll(
            new BudgetCheck($"{scenario}.ResponseHeaderBytes", size.HeaderBytes, detail),
            new BudgetCheck($"{scenario}.ResponseBodyBytes", size.BodyBytes, detail));
    }
}
