namespace PerfBudgets.Server.Changes;

/// <summary>
/// What counts as a change rather than noise (docs/results-server.md, "Change points"). A level must last
/// <see cref="MinSegmentLength"/> runs on each side of the change, and the medians of the two levels must differ by
/// <see cref="MinRelativeShift"/> of the level before.
/// </summary>
internal sealed record ChangePointSettings
{
    /// <summary>
    /// The fewest runs a level holds: 5. One slow run (a neighbour on a shared core) is then never a level of its own,
    /// and the median of five runs moves far less than one run does.
    /// </summary>
    public int MinSegmentLength { get; init; } = 5;

    /// <summary>
    /// The smallest shift of the median that is reported, as a fraction of the median before: 0.10. The gate's own
    /// run-to-run noise thresholds for timed kinds are 20-70% (budgets.json "noise"), for one run against one run; a
    /// median of five or more runs on each side is steadier, and a lasting 10% is worth a look.
    /// </summary>
    public double MinRelativeShift { get; init; } = 0.10;

    /// <summary>The defaults above.</summary>
    public static ChangePointSettings Default { get; } = new();

    /// <summary>Throws unless both settings are usable.</summary>
    public void Validate()
    {
        if (MinSegmentLength < 2)
        {
            throw new ArgumentOutOfRangeException(nameof(MinSegmentLength), MinSegmentLength, "A level needs at least 2 runs.");
        }

        if (!(MinRelativeShift > 0) || double.IsInfinity(MinRelativeShift))
        {
            throw new ArgumentOutOfRangeException(nameof(MinRelativeShift), MinRelativeShift, "The minimum shift is a positive fraction.");
        }
    }
}
