using System.Text.Json;
using System.Text.Json.Serialization;
using PerfBudgets.Load;

namespace PerfBudgets.Reporting;

/// <summary>
/// One load scenario's statistics as written to the top-level <c>loads</c> array of <c>results.json</c> (camelCase), and
/// as the report reads them back. Reading is tolerant: a file without <c>loads</c> has no load section.
/// </summary>
/// <param name="Scenario">The scenario's name.</param>
/// <param name="Model"><c>closed</c>, <c>open</c> or <c>mixed</c>.</param>
/// <param name="Phases">The phases as run.</param>
/// <param name="TargetRate">Open model: scheduled requests per second; null for closed.</param>
/// <param name="AchievedRate">Successful requests that ended inside the measured window, per second.</param>
/// <param name="MeasuredSeconds">Length of the measured phases.</param>
/// <param name="Requests">Measured requests that ended (successes and failures).</param>
/// <param name="Ok">Successful measured requests.</param>
/// <param name="Failed">Failed requests, warm-up included.</param>
/// <param name="NotSent">Open model: measured requests not started because the in-flight bound was reached.</param>
/// <param name="Abandoned">Requests cut off at the end of the drain.</param>
/// <param name="LatencyMs">Latency percentiles from the intended start: p50, p75, p90, p95, p99, max.</param>
/// <param name="ScheduleLagP99Ms">Open model: p99 of how late the generator started requests.</param>
/// <param name="PeakInFlight">The most requests in flight at once.</param>
/// <param name="RpsPerSecond">Successful requests in each 1-second bucket of the measured window.</param>
/// <param name="StatusCodes">Measured requests by status code.</param>
/// <param name="BytesSent">Payload bytes sent.</param>
/// <param name="BytesReceived">Payload bytes received.</param>
/// <param name="Errors">Failures per distinct error text.</param>
/// <param name="TimestampUtc">When the scenario ended.</param>
/// <param name="Machine">Where it ran.</param>
internal sealed record LoadReport(
    string Scenario,
    string Model,
    string Phases,
    double? TargetRate,
    double AchievedRate,
    double MeasuredSeconds,
    long Requests,
    long Ok,
    long Failed,
    long NotSent,
    long Abandoned,
    LatencyPercentiles? LatencyMs,
    double ScheduleLagP99Ms,
    int PeakInFlight,
    IReadOnlyList<double>? RpsPerSecond,
    IReadOnlyDictionary<string, long>? StatusCodes,
    long BytesSent,
    long BytesReceived,
    IReadOnlyDictionary<string, long>? Errors,
    DateTimeOffset? TimestampUtc,
    MachineInfo? Machine)
{
    private static readonly JsonSerializerOptions ReadOptions = new()
    {
        PropertyNameCaseInsensitive = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals | JsonNumberHandling.AllowReadingFromString,
    };

    /// <summary>The report of <paramref name="result"/>, stamped now.</summary>
    public static LoadReport From(LoadResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return new LoadReport(
            result.Scenario,
            result.Model,
            result.Phases,
            result.TargetRate,
            result.RequestsPerSecond,
            result.MeasuredSeconds,
            result.StatusCodes.Values.Sum(),
            result.Completed,
            result.Failed,
            result.NotSent,
            result.Abandoned,
            new LatencyPercentiles(result.P50Ms, result.P75Ms, result.P90Ms, result.P95Ms, result.P99Ms, result.MaxMs),
            result.ScheduleLagP99Ms,
            result.PeakInFlight,
            result.RequestsPerSecondBuckets,
            result.StatusCodes.ToDictionary(s => s.Key.ToString(System.Globalization.CultureInfo.InvariantCulture), s => s.Value),
            result.BytesSent,
            result.BytesReceived,
            result.Errors,
            DateTimeOffset.UtcNow,
            MachineInfo.Current);
    }

    /// <summary>
    /// The <c>loads</c> array of the results file at <paramref name="resultsPath"/>; empty when the file or the array is
    /// absent. An entry that cannot be read (no scenario name, wrong types) is skipped and counted in <paramref name="skipped"/>.
    /// </summary>
    public static List<LoadReport> ReadAll(string resultsPath, out int skipped)
    {
        skipped = 0;
        var loads = new List<LoadReport>();
        if (!File.Exists(resultsPath))
        {
            return loads;
        }

        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(File.ReadAllText(resultsPath));
        }
        catch (JsonException)
        {
            return loads;
        }

        using (document)
        {
            if (document.RootElement.ValueKind != JsonValueKind.Object
                || !document.RootElement.TryGetProperty("loads", out var array)
                || array.ValueKind != JsonValueKind.Array)
            {
                return loads;
            }

            foreach (var entry in array.EnumerateArray())
            {
                try
                {
                    if (entry.Deserialize<LoadReport>(ReadOptions) is { Scenario.Length: > 0 } stats)
                    {
                        loads.Add(stats);
                        continue;
                    }
                }
                catch (Exception e) when (e is JsonException or InvalidOperationException)
                {
                }

                skipped++;
            }
        }

        return loads;
    }
}
