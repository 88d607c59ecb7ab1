namespace PerfBudgets.Reporting;

/// <summary>Latency percentiles of a load scenario's measured window, in milliseconds (<c>latencyMs</c> in results.json).</summary>
internal sealed record LatencyPercentiles(double P50, double P75, double P90, double P95, double P99, double Max);
