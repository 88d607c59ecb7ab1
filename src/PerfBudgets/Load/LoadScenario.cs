namespace PerfBudgets.Load;

/// <summary>
/// A closed-model load scenario: <see cref="Copies"/> concurrent copies each run <see cref="Step"/> back to back,
/// first for <see cref="WarmUp"/> (not measured), then for <see cref="Duration"/> (measured). Closed model means
/// a copy starts its next request only when the previous one finished, so concurrency is fixed and Little's law
/// gives the ideal rate: copies ÷ per-request time.
/// </summary>
/// <param name="Name">Permanent identifier of the scenario, used in reports.</param>
/// <param name="Copies">Concurrent copies (virtual users).</param>
/// <param name="WarmUp">Time run before measuring: JIT, connection set-up, thread-pool growth.</param>
/// <param name="Duration">Measured time.</param>
/// <param name="Step">One request. Receives the copy's index (for per-copy state such as a connection) and returns
/// false, or throws, for a failed request.</param>
public sealed record LoadScenario(
    string Name,
    int Copies,
    TimeSpan WarmUp,
    TimeSpan Duration,
    Func<int, CancellationToken, ValueTask<bool>> Step)
{
    /// <summary>
    /// How long requests still in flight when the measured window closes may take before they are cancelled.
    /// They count neither as completed nor as failed (see <see cref="LoadResult.Abandoned"/>); this bounds the run
    /// when a saturated server has a long queue. Default 5 s.
    /// </summary>
    public TimeSpan Drain { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>Throws for settings that cannot produce a measurement.</summary>
    public void Validate()
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(Name);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Copies);
        ArgumentOutOfRangeException.ThrowIfLessThan(WarmUp, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(Duration, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfLessThan(Drain, TimeSpan.Zero);
        ArgumentNullException.ThrowIfNull(Step);
    }
}
