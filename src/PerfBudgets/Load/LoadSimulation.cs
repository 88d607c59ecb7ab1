using System.Globalization;

namespace PerfBudgets.Load;

/// <summary>
/// One phase of a <see cref="LoadScenario"/>: a load model held, or ramped linearly, for a duration. Phases run in
/// order, as NBomber composes its simulations; a warm-up phase runs like any other but is left out of the result.
/// </summary>
/// <param name="Model">Closed (copies) or open (requests per second).</param>
/// <param name="From">Copies, or requests per second, at the start of the phase.</param>
/// <param name="To">Copies, or requests per second, at the end of the phase (equal to <paramref name="From"/> when held constant).</param>
/// <param name="Duration">How long the phase lasts.</param>
/// <param name="IsWarmUp">True when the phase's requests are not measured (JIT, connections, pool growth).</param>
public sealed record LoadSimulation(LoadModel Model, double From, double To, TimeSpan Duration, bool IsWarmUp = false)
{
    /// <summary>Closed model: keeps <paramref name="copies"/> copies running back to back (NBomber's KeepConstant).</summary>
    public static LoadSimulation KeepConstant(int copies, TimeSpan duration) => new(LoadModel.Closed, copies, copies, duration);

    /// <summary>Closed model: ramps the copies linearly from <paramref name="from"/> to <paramref name="to"/> (NBomber's RampingConstant).</summary>
    public static LoadSimulation RampingConstant(int from, int to, TimeSpan duration) => new(LoadModel.Closed, from, to, duration);

    /// <summary>Open model: starts <paramref name="requestsPerSecond"/> requests per second on a fixed schedule (NBomber's Inject, k6's constant-arrival-rate).</summary>
    public static LoadSimulation Inject(double requestsPerSecond, TimeSpan duration) => new(LoadModel.Open, requestsPerSecond, requestsPerSecond, duration);

    /// <summary>Open model: ramps the arrival rate linearly from <paramref name="from"/> to <paramref name="to"/> requests per second (NBomber's RampingInject).</summary>
    public static LoadSimulation RampingInject(double from, double to, TimeSpan duration) => new(LoadModel.Open, from, to, duration);

    /// <summary>The same phase, not measured.</summary>
    public LoadSimulation AsWarmUp() => this with { IsWarmUp = true };

    /// <summary>Copies, or the arrival rate, at <paramref name="elapsed"/> into the phase.</summary>
    public double ValueAt(TimeSpan elapsed) =>
        From + ((To - From) * Math.Clamp(elapsed / Duration, 0, 1));

    /// <summary>
    /// Open model: the offset from the phase's start at which request number <paramref name="index"/> (0-based) is
    /// due, or null when it falls after the phase. With a linear ramp the requests due by time t are the integral of
    /// the rate, From·t + (To − From)·t² / 2D, so the k-th request is the root of that quadratic.
    /// </summary>
    public TimeSpan? IntendedOffset(long index)
    {
        if (Model != LoadModel.Open)
        {
            throw new InvalidOperationException("Only an open-model phase has a schedule.");
        }

        var d = Duration.TotalSeconds;
        var k = (double)index;
        double t;
        if (Math.Abs(To - From) < 1e-9)
        {
            t = From <= 0 ? double.PositiveInfinity : k / From;
        }
        else
        {
            // a·t² + b·t − k = 0 with a = (To − From) / 2D, b = From; the root that is ≥ 0 while the rate is ≥ 0.
            var a = (To - From) / (2 * d);
            var discriminant = (From * From) + (4 * a * k);
            t = discriminant < 0 ? double.PositiveInfinity : (-From + Math.Sqrt(discriminant)) / (2 * a);
        }

        return t >= 0 && t < d ? TimeSpan.FromSeconds(t) : null;
    }

    /// <summary>Throws for a phase that cannot run.</summary>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(Duration, TimeSpan.Zero, nameof(Duration));
        if (!double.IsFinite(From) || !double.IsFinite(To) || From < 0 || To < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(From), $"{this}: copies and rates must be finite and ≥ 0.");
        }

        if (Model == LoadModel.Closed && (From != Math.Floor(From) || To != Math.Floor(To)))
        {
            throw new ArgumentOutOfRangeException(nameof(From), $"{this}: copies must be whole numbers.");
        }
    }

    /// <inheritdoc />
    public override string ToString()
    {
        var what = Model == LoadModel.Closed ? "copies" : "req/s";
        var value = From == To
            ? string.Create(CultureInfo.InvariantCulture, $"{From:0.##} {what}")
            : string.Create(CultureInfo.InvariantCulture, $"{From:0.##}→{To:0.##} {what}");
        return string.Create(CultureInfo.InvariantCulture, $"{(IsWarmUp ? "warm-up " : string.Empty)}{Model.ToString().ToLowerInvariant()} {value} for {Duration.TotalSeconds:0.##} s");
    }
}
