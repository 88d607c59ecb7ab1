namespace PerfBudgets.Server.Changes;

/// <summary>
/// What counts as a change rather than noise (docs/results-server.md, "Change points"). A level must last
/// <see cref="MinSegmentLength"/> runs on each side of the change, and the medians of the two levels must differ by
/// the budget's minimum step (<see cref="MinRelativeShift"/>, else <see cref="ShiftThresholds"/>) and by
/// <see cref="MinSignificance"/> standard errors.
/// </summary>
internal sealed record ChangePointSettings
{
    /// <summary>
    /// The fewest runs a level holds: 5. One slow run (a neighbour on a shared core) is then never a level of its own,
    /// and the median of five runs moves far less than one run does.
    /// </summary>
    public int MinSegmentLength { get; init; } = 5;

    /// <summary>
    /// The smallest step reported for every budget alike, measured direction-free as the larger of the two medians over
    /// the smaller − 1 (0.10: one median 10% above the other); null (the default) takes each budget's own from
    /// <see cref="ShiftThresholds"/>: the smaller of its noise threshold and its kind's default. One
    /// figure for all did not fit: on the real gate runs the machine alone moved a p99's median by up to +413% and a
    /// ratio's by under 10% (docs/results-server.md, "Real gate runs").
    /// </summary>
    public double? MinRelativeShift { get; init; }

    /// <summary>The step a finder without a kind to go by (and a kind without a default) takes: 0.10.</summary>
    public const double FallbackMinRelativeShift = 0.10;

    /// <summary>
    /// How many standard errors the two medians must be apart: 4. The noise is estimated from the whole series (the
    /// median absolute deviation of every run from its level's median, ×1.4826: a standard deviation for normal noise,
    /// unmoved by a few slow runs), a median's standard error as 1.2533·σ/√n; the shift must exceed this many of the
    /// two medians' combined. Without it, chance boundaries of a noisy series get through <see cref="MinRelativeShift"/>:
    /// of 200 flat series of 60 runs with Gaussian noise of 10% of the level, 16 had a change point; with it, 1 (at 20%
    /// noise 56 without it, 1 to 3 in 100 with it). At 5% noise it costs nothing: a 15% step at run 30 is found within
    /// a run of it in 192 of 200 either way.
    /// </summary>
    public double MinSignificance { get; init; } = 4.0;

    /// <summary>The defaults above.</summary>
    public static ChangePointSettings Default { get; } = new();

    /// <summary>Throws unless the settings are usable.</summary>
    public void Validate()
    {
        if (MinSegmentLength < 2)
        {
            throw new ArgumentOutOfRangeException(nameof(MinSegmentLength), MinSegmentLength, "A level needs at least 2 runs.");
        }

        if (MinRelativeShift is { } shift && (!(shift > 0) || double.IsInfinity(shift)))
        {
            throw new ArgumentOutOfRangeException(nameof(MinRelativeShift), MinRelativeShift, "The minimum shift is a positive fraction.");
        }

        if (!(MinSignificance >= 0) || double.IsInfinity(MinSignificance))
        {
            throw new ArgumentOutOfRangeException(nameof(MinSignificance), MinSignificance, "The minimum significance is a number of standard errors, 0 or more.");
        }
    }
}
