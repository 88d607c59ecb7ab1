namespace PerfBudgets.Load;

/// <summary>
/// A load scenario: a step (one request) and the phases (<see cref="LoadSimulation"/>) that decide when steps start,
/// run in order. Phases marked as warm-up run but are left out of the <see cref="LoadResult"/>.
/// </summary>
/// <remarks>
/// <para>Closed-model phases keep N copies each running the step back to back, so concurrency is fixed and the
/// server's speed sets the rate (Little's law: copies ÷ per-request time). Open-model phases start requests on a
/// schedule, so the rate is fixed and a slow server shows up as queueing latency, measured from each request's
/// intended start (no coordinated omission).</para>
/// <para>The first constructor keeps the original closed-model form: a warm-up and a measured phase of N copies.</para>
/// </remarks>
public sealed class LoadScenario
{
    /// <summary>
    /// A closed-model scenario: <paramref name="Copies"/> copies run <paramref name="Step"/> back to back, first for
    /// <paramref name="WarmUp"/> (not measured), then for <paramref name="Duration"/> (measured).
    /// </summary>
    /// <remarks>The parameter names keep the 0.1 positional record's spelling, so callers that name them still compile.</remarks>
    /// <param name="Name">Permanent identifier of the scenario, used in reports.</param>
    /// <param name="Copies">Concurrent copies (virtual users).</param>
    /// <param name="WarmUp">Time run before measuring: JIT, connection set-up, thread-pool growth.</param>
    /// <param name="Duration">Measured time.</param>
    /// <param name="Step">One request. Receives the copy's index (for per-copy state such as a connection) and
    /// returns false, or throws, for a failed request.</param>
#pragma warning disable IDE1006 // Naming: see remarks.
    public LoadScenario(string Name, int Copies, TimeSpan WarmUp, TimeSpan Duration, Func<int, CancellationToken, ValueTask<bool>> Step)
        : this(Name, ClosedPhases(Copies, WarmUp, Duration), FromBooleanStep(Step))
#pragma warning restore IDE1006
    {
    }

    /// <summary>A scenario of any phases, whose step reports status codes, sizes and error texts.</summary>
    /// <param name="name">Permanent identifier of the scenario, used in reports.</param>
    /// <param name="simulations">The phases, run in order; at least one must be measured (not warm-up).</param>
    /// <param name="step">One request. A thrown exception counts as a failure named by its type and message.</param>
    public LoadScenario(string name, IEnumerable<LoadSimulation> simulations, Func<LoadStepContext, CancellationToken, ValueTask<LoadStepOutcome>> step)
    {
        Name = name;
        Simulations = simulations?.ToArray() ?? throw new ArgumentNullException(nameof(simulations));
        Step = step;
    }

    /// <summary>Permanent identifier of the scenario, used in reports.</summary>
    public string Name { get; }

    /// <summary>The phases, in order.</summary>
    public IReadOnlyList<LoadSimulation> Simulations { get; }

    /// <summary>One request.</summary>
    public Func<LoadStepContext, CancellationToken, ValueTask<LoadStepOutcome>> Step { get; }

    /// <summary>
    /// How long requests still in flight when the last phase ends may take before they are cancelled. They count
    /// neither as completed nor as failed (see <see cref="LoadResult.Abandoned"/>); this bounds the run when a
    /// saturated server has a long queue. Default 5 s.
    /// </summary>
    public TimeSpan Drain { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Open model: the most requests allowed in flight at once. It protects the generator (memory, sockets, the
    /// thread pool) from a server that stops answering; a request due while the bound is reached is not started and
    /// is counted in <see cref="LoadResult.NotSent"/>, never silently skipped. Default 10,000.
    /// </summary>
    public int MaxInFlight { get; init; } = 10_000;

    /// <summary>Called once a second, off the request path, with the scenario's progress; null for none.</summary>
    public Action<LoadProgress>? Progress { get; init; }

    /// <summary>The most copies of any measured closed-model phase (0 when every measured phase is open).</summary>
    public int Copies => (int)Simulations.Where(s => !s.IsWarmUp && s.Model == LoadModel.Closed).Select(s => Math.Max(s.From, s.To)).DefaultIfEmpty(0).Max();

    /// <summary>Total length of the warm-up phases.</summary>
    public TimeSpan WarmUp => Simulations.Where(s => s.IsWarmUp).Aggregate(TimeSpan.Zero, (sum, s) => sum + s.Duration);

    /// <summary>Total length of the measured phases.</summary>
    public TimeSpan Duration => Simulations.Where(s => !s.IsWarmUp).Aggregate(TimeSpan.Zero, (sum, s) => sum + s.Duration);

    /// <summary>Throws for settings that cannot produce a measurement.</summary>
    public void Validate()
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(Name);
        ArgumentNullException.ThrowIfNull(Step);
        ArgumentOutOfRangeException.ThrowIfLessThan(Drain, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxInFlight);
        if (Simulations.Count == 0 || Simulations.All(s => s.IsWarmUp))
        {
            throw new ArgumentException($"Load scenario '{Name}' needs at least one measured (not warm-up) phase.", nameof(Simulations));
        }

        foreach (var simulation in Simulations)
        {
            ArgumentNullException.ThrowIfNull(simulation, nameof(Simulations));
            simulation.Validate();
        }
    }

    private static IEnumerable<LoadSimulation> ClosedPhases(int copies, TimeSpan warmUp, TimeSpan duration)
    {
        // Checked here rather than in Validate: these arguments exist only in this constructor's form.
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(copies);
        ArgumentOutOfRangeException.ThrowIfLessThan(warmUp, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(duration, TimeSpan.Zero);
        if (warmUp > TimeSpan.Zero)
        {
            yield return LoadSimulation.KeepConstant(copies, warmUp).AsWarmUp();
        }

        yield return LoadSimulation.KeepConstant(copies, duration);
    }

    private static Func<LoadStepContext, CancellationToken, ValueTask<LoadStepOutcome>> FromBooleanStep(Func<int, CancellationToken, ValueTask<bool>> step)
    {
        ArgumentNullException.ThrowIfNull(step);
        return async (context, token) => await step(context.Copy, token) ? LoadStepOutcome.Success() : LoadStepOutcome.Failure("step reported failure");
    }
}
