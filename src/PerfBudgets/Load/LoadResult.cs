using System.Globalization;

namespace PerfBudgets.Load;

/// <summary>
/// What a load scenario measured in its measured (not warm-up) phases: the one shape of a load run, which the load
/// runner and the tool's Locust reader produce, budgets are checked from, the <c>loads</c> array of <c>results.json</c>
/// holds and the reports render.
/// </summary>
/// <remarks>
/// Latency is measured from each request's intended start: in an open-model phase the moment the schedule said it
/// should start, in a closed-model phase the moment its copy started it. A request belongs to the phase it was due
/// in; only successful requests enter the latency figures.
/// </remarks>
public sealed record LoadResult
{
    /// <summary>The scenario's name.</summary>
    public required string Scenario { get; init; }

    /// <summary><c>closed</c>, <c>open</c>, or <c>mixed</c> when the measured phases use both models.</summary>
    public required string Model { get; init; }

    /// <summary>The phases as run, warm-up included, for reports.</summary>
    public required string Phases { get; init; }

    /// <summary>The most copies of any measured closed-model phase (0 for an open-model run).</summary>
    public required int Copies { get; init; }

    /// <summary>Open model: the scheduled arrival rate over the measured phases (requests ÷ seconds); null for a closed-model run.</summary>
    public required double? TargetRate { get; init; }

    /// <summary>Total length of the measured phases.</summary>
    public required double MeasuredSeconds { get; init; }

    /// <summary>Open model: requests due in the measured phases (sent plus not sent).</summary>
    public required long Scheduled { get; init; }

    /// <summary>
    /// Measured requests that ended, successes and failures: the sum of <see cref="StatusCodes"/> for the load runner,
    /// Locust's own request count for a Locust run (its files hold no status codes).
    /// </summary>
    public required long Requests { get; init; }

    /// <summary>Successful requests started in the measured phases, those that ended in the drain included.</summary>
    public required long Completed { get; init; }

    /// <summary>Failed requests over the whole run, warm-up included: a failure is never hidden by a warm-up.</summary>
    public required long Failed { get; init; }

    /// <summary>Open model: requests due in the measured phases that were not started because <see cref="LoadScenario.MaxInFlight"/> was reached.</summary>
    public required long NotSent { get; init; }

    /// <summary>Requests still in flight when the drain after the last phase ran out; cancelled, counted neither way.</summary>
    public required long Abandoned { get; init; }

    // The latency figures below count successful answers inside the measured window; with none, each is NaN (not
    // measured), never 0.

    /// <summary>Median latency, ms; NaN when no request succeeded in the window.</summary>
    public required double P50Ms { get; init; }

    /// <summary>75th-percentile latency, ms; NaN when no request succeeded in the window.</summary>
    public required double P75Ms { get; init; }

    /// <summary>90th-percentile latency, ms; NaN when no request succeeded in the window.</summary>
    public required double P90Ms { get; init; }

    /// <summary>95th-percentile latency, ms; NaN when no request succeeded in the window.</summary>
    public required double P95Ms { get; init; }

    /// <summary>99th-percentile latency, ms; NaN when no request succeeded in the window.</summary>
    public required double P99Ms { get; init; }

    /// <summary>Largest latency, ms; NaN when no request succeeded in the window.</summary>
    public required double MaxMs { get; init; }

    /// <summary>
    /// Open model: 99th percentile of how late the generator started requests against their schedule, ms. It is part
    /// of the latency above (which counts from the intended start); a large figure means the generator, not the server,
    /// fell behind.
    /// </summary>
    public required double ScheduleLagP99Ms { get; init; }

    /// <summary>The most requests in flight at once, for sizing <see cref="LoadScenario.MaxInFlight"/>.</summary>
    public required int PeakInFlight { get; init; }

    /// <summary>Successful requests that ended in each 1-second bucket of the measured window (a warm-up request that ends in the window included).</summary>
    public required IReadOnlyList<double> RequestsPerSecondBuckets { get; init; }

    /// <summary>Measured requests by status code, failures included (0 when the step reports none).</summary>
    public required IReadOnlyDictionary<int, long> StatusCodes { get; init; }

    /// <summary>Payload bytes sent by measured requests, as the step counted them.</summary>
    public required long BytesSent { get; init; }

    /// <summary>Payload bytes received by measured requests, as the step counted them.</summary>
    public required long BytesReceived { get; init; }

    /// <summary>Failures over the whole run, counted per distinct error text.</summary>
    public required IReadOnlyDictionary<string, long> Errors { get; init; }

    /// <summary>When the run ended; null until it is recorded (<see cref="BudgetGate.RecordLoad"/> stamps it).</summary>
    public DateTimeOffset? TimestampUtc { get; init; }

    /// <summary>The machine it ran on; null until it is recorded (<see cref="BudgetGate.RecordLoad"/> stamps it).</summary>
    public Reporting.MachineInfo? Machine { get; init; }

    /// <summary>Up to five error texts, the most frequent first, for failure messages.</summary>
    public IReadOnlyList<string> FirstErrors => Errors.OrderByDescending(e => e.Value).ThenBy(e => e.Key, StringComparer.Ordinal).Take(5).Select(e => e.Key).ToArray();

    /// <summary>
    /// Successful requests that ended inside the measured window, per second: the rate the server sustained (the
    /// throughput, as a closed-model run has always counted it). A warm-up request that ends in the window counts and
    /// a window request that ends after it does not, so at a steady state this is the offered rate whatever the
    /// latency; a server that falls behind its arrivals and catches up in the drain does not reach it.
    /// </summary>
    public double RequestsPerSecond => MeasuredSeconds <= 0 ? 0 : RequestsPerSecondBuckets.Sum() / MeasuredSeconds;

    /// <summary>Open model: <see cref="RequestsPerSecond"/> ÷ <see cref="TargetRate"/>; 1.0 means the server answered as fast as requests arrived.</summary>
    public double AchievedRateRatio => TargetRate is > 0 ? RequestsPerSecond / TargetRate.Value : 0;

    /// <summary>
    /// Little's-law efficiency of a closed-model run: measured rate ÷ the ideal rate of <see cref="Copies"/> requests
    /// each taking <paramref name="idealRequestTime"/>. 1.0 means no time was lost outside the request's own wait.
    /// </summary>
    public double LittleEfficiency(TimeSpan idealRequestTime)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(idealRequestTime, TimeSpan.Zero);
        return Copies == 0 ? throw new InvalidOperationException($"{Scenario} ran no closed-model phase; Little's-law efficiency needs copies.") : RequestsPerSecond / (Copies / idealRequestTime.TotalSeconds);
    }

    /// <summary>Failures per distinct error, for a failure message: <c>12× TimeoutException: … | 3× status 500</c>.</summary>
    public string ErrorSummary() => string.Join(" | ", Errors.OrderByDescending(e => e.Value).Take(5).Select(e => string.Create(CultureInfo.InvariantCulture, $"{e.Value}× {e.Key}")));

    /// <summary>One line for logs and budget details.</summary>
    public override string ToString()
    {
        var load = TargetRate is { } rate
            ? string.Create(CultureInfo.InvariantCulture, $"{RequestsPerSecond:0} of {rate:0} req/s in the window ({AchievedRateRatio:P1}), not sent={NotSent}, lag p99={ScheduleLagP99Ms:0.#} ms, peak in flight={PeakInFlight}")
            : string.Create(CultureInfo.InvariantCulture, $"{Copies} copies, {RequestsPerSecond:0} req/s");
        return string.Create(CultureInfo.InvariantCulture,
            $"{Scenario} ({Model}): {load} over {MeasuredSeconds:0.#} s, ok={Completed}, failed={Failed}, abandoned={Abandoned}, p50={P50Ms:0.##} p75={P75Ms:0.##} p95={P95Ms:0.##} p99={P99Ms:0.##} max={MaxMs:0.#} ms{(Errors.Count > 0 ? ", errors: " + ErrorSummary() : string.Empty)}");
    }
}
