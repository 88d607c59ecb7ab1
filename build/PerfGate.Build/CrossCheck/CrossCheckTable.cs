using System.Globalization;
using System.Text;

namespace PerfGate.Build.CrossCheck;

/// <summary>
/// The cross-check's markdown table: the same endpoint at the same concurrency with the PerfBudgets load runner and
/// with wrk. CPU per request is each process's CPU seconds ÷ the requests it completed; each generator's requests
/// are its rate times the time it ran (the runner's warm-up included, as its CPU time includes it).
/// </summary>
internal static class CrossCheckTable
{
    /// <summary>The CPU seconds a generator and the server used during one generator's run (NaN: the server's unknown, its row left out).</summary>
    public sealed record Cpu(double GeneratorSeconds, double ServerSeconds);

    public static string Render(string endpoint, int connections, double seconds, double warmUpSeconds, LoadSummary ours, Cpu oursCpu, WrkSummary theirs, Cpu theirsCpu)
    {
        ArgumentNullException.ThrowIfNull(ours);
        ArgumentNullException.ThrowIfNull(oursCpu);
        ArgumentNullException.ThrowIfNull(theirs);
        ArgumentNullException.ThrowIfNull(theirsCpu);
        var oursRequests = ours.RequestsPerSecond * (warmUpSeconds + seconds);
        var wrkRequests = theirs.RequestsPerSecond * seconds;
        var failed = theirs.NonSuccessResponses == 0 && theirs.SocketErrors.Length == 0
            ? "0"
            : string.Join("; ", new[] { theirs.NonSuccessResponses > 0 ? $"non-2xx or 3xx responses {theirs.NonSuccessResponses}" : null, theirs.SocketErrors.Length > 0 ? $"socket errors: {theirs.SocketErrors}" : null }.OfType<string>());
        var table = new StringBuilder();
        void Row(FormattableString row) => table.AppendLine(row.ToString(CultureInfo.InvariantCulture));
        Row($"| {endpoint}, {connections} connections, {seconds} s, {Environment.ProcessorCount} cores | PerfBudgets LoadRunner | wrk |");
        Row($"|---|---:|---:|");
        Row($"| requests/s | {ours.RequestsPerSecond:N0} | {theirs.RequestsPerSecond:N0} |");
        Row($"| p50 latency, ms | {ours.P50Ms:0.###} | {theirs.P50Microseconds / 1000:0.###} |");
        Row($"| p99 latency, ms | {ours.P99Ms:0.###} | {theirs.P99Microseconds / 1000:0.###} |");
        Row($"| generator CPU per request, µs | {oursCpu.GeneratorSeconds / oursRequests * 1e6:0} | {theirsCpu.GeneratorSeconds / wrkRequests * 1e6:0} |");
        if (double.IsFinite(oursCpu.ServerSeconds) && double.IsFinite(theirsCpu.ServerSeconds))
        {
            Row($"| server CPU per request, µs | {oursCpu.ServerSeconds / oursRequests * 1e6:0} | {theirsCpu.ServerSeconds / wrkRequests * 1e6:0} |");
        }

        Row($"| failed | {ours.Failed:0} | {failed} |");
        return table.ToString();
    }
}
