using System.Text.Json;
using System.Text.Json.Serialization;

namespace PerfBudgets.Reporting;

/// <summary>
/// One load scenario's statistics as written to the top-level <c>loads</c> array of <c>results.json</c> (camelCase):
/// what the report draws for it. Reading is tolerant: a file without <c>loads</c> has no load section.
/// </summary>
/// <param name="Scenario">Scenario name, e.g. <c>Json.Endpoint.Employees9.Open</c>.</param>
/// <param name="Model"><c>open</c>, <c>closed</c> or <c>mixed</c>.</param>
/// <param name="TargetRate">Requests per second asked for (open model), or null.</param>
/// <param name="AchievedRate">Requests per second completed over the measured window.</param>
/// <param name="MeasuredSeconds">Length of the measured window.</param>
/// <param name="Requests">Requests completed in the window.</param>
/// <param name="Ok">Successful requests.</param>
/// <param name="Failed">Failed requests.</param>
/// <param name="NotSent">Requests an open model could not send in time.</param>
/// <param name="LatencyMs">Latency percentiles, or null.</param>
/// <param name="RpsPerSecond">Requests completed in each second of the window.</param>
/// <param name="StatusCodes">Responses by HTTP status code.</param>
/// <param name="BytesSent">Bytes sent.</param>
/// <param name="BytesReceived">Bytes received.</param>
/// <param name="Errors">Error texts and how often each was seen.</param>
/// <param name="TimestampUtc">When it was measured.</param>
public sealed record LoadScenarioStats(
    string Scenario,
    string? Model,
    double? TargetRate,
    double AchievedRate,
    double MeasuredSeconds,
    long Requests,
    long Ok,
    long Failed,
    long NotSent,
    LatencyPercentiles? LatencyMs,
    IReadOnlyList<double>? RpsPerSecond,
    IReadOnlyDictionary<string, long>? StatusCodes,
    long BytesSent,
    long BytesReceived,
    IReadOnlyDictionary<string, long>? Errors,
    DateTimeOffset? TimestampUtc)
{
    private static readonly JsonSerializerOptions Options = new()
    {
        PropertyNameCaseInsensitive = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals | JsonNumberHandling.AllowReadingFromString,
    };

    /// <summary>
    /// The <c>loads</c> array of the results file at <paramref name="resultsPath"/>; empty when the file or the array is
    /// absent. An entry that cannot be read (no scenario name, wrong types) is skipped and counted in <paramref name="skipped"/>.
    /// </summary>
    public static List<LoadScenarioStats> ReadAll(string resultsPath, out int skipped)
    {
        skipped = 0;
        var loads = new List<LoadScenarioStats>();
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
                    if (entry.Deserialize<LoadScenarioStats>(Options) is { Scenario.Length: > 0 } stats)
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
