namespace PerfBudgets.Measuring;

/// <summary>What a paired HTTP load measured (<see cref="PairedHttpLoad"/>), each figure head ÷ base.</summary>
/// <param name="RequestsPerSecond">Successful requests per second.</param>
/// <param name="CpuPerRequest">The server process's CPU time per request, in microseconds.</param>
/// <param name="P99">The 99th percentile of each round's latencies, in milliseconds.</param>
public sealed record PairedHttpComparison(PairedComparison RequestsPerSecond, PairedComparison CpuPerRequest, PairedComparison P99);
