using System.Globalization;
using System.Text.Json;

namespace PerfGate.Build.CrossCheck;

/// <summary>
/// What wrk measured, as the Lua <c>done()</c> hook of <see cref="DoneScript"/> prints it: one JSON line, so nothing
/// reads wrk's text output.
/// </summary>
/// <param name="Requests">Requests completed.</param>
/// <param name="DurationMicroseconds">The run's length, µs.</param>
/// <param name="P50Microseconds">The median latency, µs.</param>
/// <param name="P99Microseconds">The 99th percentile latency, µs.</param>
/// <param name="NonSuccessResponses">Responses that were not 2xx or 3xx.</param>
/// <param name="SocketErrors">Connect, read, write and timeout errors.</param>
internal sealed record WrkSummary(long Requests, double DurationMicroseconds, double P50Microseconds, double P99Microseconds, long NonSuccessResponses, string SocketErrors)
{
    /// <summary>The <c>wrk -s</c> script: prints the summary as one JSON object on a line of its own when the run ends.</summary>
    public const string DoneScript = """
        done = function(summary, latency, requests)
          local e = summary.errors
          io.write(string.format('{"requests":%d,"duration_us":%d,"p50_us":%.1f,"p99_us":%.1f,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\n',
            summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect, e.read, e.write, e.timeout))
        end
        """;

    /// <summary>Requests a second, as wrk's own Requests/sec line computes it.</summary>
    public double RequestsPerSecond => Requests / (DurationMicroseconds / 1e6);

    /// <summary>The summary in wrk's output: the one line that is a JSON object.</summary>
    public static WrkSummary Parse(IEnumerable<string> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        var line = output.Select(l => l.Trim()).LastOrDefault(l => l.StartsWith("{\"requests\":", StringComparison.Ordinal))
            ?? throw new BuildInputException("wrk printed no summary: was it run with the crosscheck script (-s)?");
        using var json = JsonDocument.Parse(line);
        var root = json.RootElement;
        long Count(string name) => root.GetProperty(name).GetInt64();
        var sockets = new[] { "connect", "read", "write", "timeout" }.Where(n => Count(n) > 0).Select(n => string.Create(CultureInfo.InvariantCulture, $"{n} {Count(n)}"));
        return new WrkSummary(Count("requests"), root.GetProperty("duration_us").GetDouble(), root.GetProperty("p50_us").GetDouble(),
            root.GetProperty("p99_us").GetDouble(), Count("status"), string.Join(", ", sockets));
    }
}
