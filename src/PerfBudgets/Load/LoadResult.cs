using System.Globalization;

namespace PerfBudgets.Load;

/// <summary>What a load scenario measured in its measured window.</summary>
/// <param name="Scenario">The scenario's name.</param>
/// <param name="Copies">Concurrent copies.</param>
/// <param name="MeasuredSeconds">Length of the measured window.</param>
/// <param name="Completed">Successful requests that completed inside the window.</param>
/// <param name="Failed">Failed requests over the whole run, warm-up included.</param>
/// <param name="P50Ms">Median latency of requests started inside the window.</param>
/// <param name="P99Ms">99th-percentile latency of requests started inside the window.</param>
/// <param name="MaxMs">Largest latency of requests started inside the window.</param>
/// <param name="Abandoned">Requests still in flight when the drain after the window ran out; cancelled, not counted.</param>
/// <param name="FirstErrors">Up to five distinct error texts, for the failure message.</param>
public sealed record LoadResult(
    string Scenario,
    int Copies,
    double MeasuredSeconds,
    long Completed,
    long Failed,
    double P50Ms,
    double P99Ms,
    double MaxMs,
    long Abandoned,
    IReadOnlyList<string> FirstErrors)
{
    /// <summary>Successful requests per second in the measured window.</summary>
    public double RequestsPerSecond => MeasuredSeconds <= 0 ? 0 : Completed / MeasuredSeconds;

    /// <summary>
    /// Little's-law efficiency: measured rate ÷ the ideal rate of <see cref="Copies"/> requests each taking
    /// <paramref name="idealRequestTime"/>. 1.0 means no time was lost outside the request's own wait.
    /// </summary>
    public double LittleEfficiency(TimeSpan idealRequestTime) =>
        idealRequestTime <= TimeSpan.Zero ? throw new ArgumentOutOfRangeException(nameof(idealRequestTime)) : RequestsPerSecond / (Copies / idealRequestTime.TotalSeconds);

    /// <summary>One line for logs and budget details.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"{Scenario}: {Copies} copies, {RequestsPerSecond:0} req/s over {MeasuredSeconds:0.#} s, ok={Completed}, failed={Failed}, abandoned={Abandoned}, p50={P50Ms:0.#} ms, p99={P99Ms:0.#} ms, max={MaxMs:0.#} ms{(FirstErrors.Count > 0 ? ", first error: " + FirstErrors[0] : string.Empty)}");
}
