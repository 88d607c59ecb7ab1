using System.Text.Json;
using PerfBudgets.Load;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Reporting.Storage;

// The loads of results.json: one LoadResult per scenario, under the names the file has always had.
public sealed class LoadResultJsonTests : IDisposable
{
    private readonly TemporaryDirectory _folder = new();

    public void Dispose() => _folder.Dispose();

    // An entry as earlier versions wrote it: no copies, no scheduled, a status code keyed by its text.
    private const string Earlier = """
        { "scenario": "S", "model": "closed", "phases": "16 copies for 5 s", "targetRate": null, "achievedRate": 10, "measuredSeconds": 2,
          "requests": 21, "ok": 20, "failed": 1, "notSent": 0, "abandoned": 0,
          "latencyMs": { "p50": 1, "p75": 2, "p90": 3, "p95": 4, "p99": "5", "max": 6 }, "scheduleLagP99Ms": 0, "peakInFlight": 16,
          "rpsPerSecond": [12, 8], "statusCodes": { "200": 20, "500": 1 }, "bytesSent": 0, "bytesReceived": 99,
          "errors": { "status 500": 1 }, "timestampUtc": "2026-11-20T10:00:00+00:00", "machine": null }
        """;

    [Fact]
    public void An_entry_of_an_earlier_version_reads_with_its_new_fields_zero()
    {
        var load = LoadResultJson.Read(JsonDocument.Parse(Earlier).RootElement);

        (load.Scenario, load.Copies, load.Scheduled, load.Requests, load.Completed, load.Failed).Should().Be(("S", 0, 0L, 21L, 20L, 1L));
        (load.P99Ms, load.RequestsPerSecond, load.TimestampUtc).Should().Be((5d, 10d, new DateTimeOffset(2026, 11, 20, 10, 0, 0, TimeSpan.Zero)));
        load.StatusCodes.Should().Equal(new Dictionary<int, long> { [200] = 20, [500] = 1 });
    }

    [Fact]
    public void An_entry_without_percentiles_reads_them_as_not_a_number_and_one_without_a_name_is_refused()
    {
        LoadResultJson.Read(JsonDocument.Parse("""{ "scenario": "S" }""").RootElement).P50Ms.Should().Be(double.NaN);
        FluentActions.Invoking(() => LoadResultJson.Read(JsonDocument.Parse("""{ "model": "open" }""").RootElement)).Should().Throw<JsonException>();
        FluentActions.Invoking(() => LoadResultJson.Read(JsonDocument.Parse("""{ "scenario": "S", "ok": "many" }""").RootElement)).Should().Throw<JsonException>();
    }

    [Fact]
    public void Recording_a_scenario_replaces_its_own_entry_and_keeps_the_others_as_written()
    {
        var store = new ResultStore(_folder.Path);
        Directory.CreateDirectory(_folder.Path);
        File.WriteAllText(store.ResultsPath, $$"""{ "results": [], "loads": [ {{Earlier.Replace("\"scenario\": \"S\"", "\"scenario\": \"Other\", \"aFieldOfALaterVersion\": 7", StringComparison.Ordinal)}}, {{Earlier}} ] }""");
        var load = LoadResultJson.Read(JsonDocument.Parse(Earlier).RootElement) with { Copies = 16, Completed = 19 };

        store.RecordLoad(load);

        var loads = ResultStore.ReadLoads(store.ResultsPath, out var skipped);
        skipped.Should().Be(0);
        loads.Select(l => (l.Scenario, l.Copies, l.Completed)).Should().Equal(("Other", 0, 20L), ("S", 16, 19L));
        File.ReadAllText(store.ResultsPath).Should().Contain("\"aFieldOfALaterVersion\": 7", "an entry this version did not write is kept as it was");
    }

    [Fact]
    public void An_entry_reads_back_as_written_with_the_percentiles_a_run_did_not_have_as_NaN_text()
    {
        var load = LoadResultJson.Read(JsonDocument.Parse("""{ "scenario": "S", "rpsPerSecond": [3], "measuredSeconds": 1, "statusCodes": { "500": 1, "200": 2 } }""").RootElement);
        var options = new JsonSerializerOptions { Converters = { new LoadResultJson() } };

        var written = JsonSerializer.Serialize(load, options);

        written.Should().Contain("\"p99\":\"NaN\"").And.Contain("\"statusCodes\":{\"200\":2,\"500\":1}").And.Contain("\"achievedRate\":3").And.Contain("\"targetRate\":null");
        var back = JsonSerializer.Deserialize<LoadResult>(written, options)!;
        (back.Scenario, back.RequestsPerSecond, back.P99Ms, back.StatusCodes.Count).Should().Be(("S", 3d, double.NaN, 2));
        FluentActions.Invoking(() => LoadResultJson.Read(JsonDocument.Parse("""{ "scenario": "S", "statusCodes": { "OK": 1 } }""").RootElement)).Should().Throw<JsonException>();
        LoadResultJson.Read(JsonDocument.Parse("""{ "Scenario": "S", "OK": "7", "requests": null }""").RootElement).Should().Match<LoadResult>(l => l.Completed == 7 && l.Requests == 0);
    }
}
