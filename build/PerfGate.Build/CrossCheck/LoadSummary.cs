using System.Globalization;

namespace PerfGate.Build.CrossCheck;

/// <summary>What <c>perfbudgets load</c> measured: its machine-readable line <c>load rps=… p50=… p99=… failed=…</c>.</summary>
/// <param name="RequestsPerSecond">Requests a second over the measured window.</param>
/// <param name="P50Ms">The median latency, ms.</param>
/// <param name="P99Ms">The 99th percentile latency, ms.</param>
/// <param name="Failed">Requests that failed.</param>
internal sealed record LoadSummary(double RequestsPerSecond, double P50Ms, double P99Ms, long Failed)
{
    private const string Prefix = "load rps=";

    /// <summary>The summary in <c>perfbudgets load</c>'s output: its one <c>load rps=</c> line.</summary>
    public static LoadSummary Parse(IEnumerable<string> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        var line = output.SingleOrDefault(l => l.StartsWith(Prefix, StringComparison.Ordinal))
            ?? throw new BuildInputException("perfbudgets load printed no 'load rps=' line.");
        var values = line["load ".Length..].Split(' ').Select(kv => kv.Split('='))
            .ToDictionary(kv => kv[0], kv => double.Parse(kv[1], CultureInfo.InvariantCulture), StringComparer.Ordinal);
        return new LoadSummary(values["rps"], values["p50"], values["p99"], (long)values["failed"]);
    }
}
