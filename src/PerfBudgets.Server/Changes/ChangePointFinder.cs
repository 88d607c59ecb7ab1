using PerfBudgets.Budgets;
using PerfBudgets.Statistics;
using Perfolizer.Mathematics.Cpd;

namespace PerfBudgets.Server.Changes;

/// <summary>
/// Finds where a timed budget's series shifted from one commit on. Perfolizer's ED-PELT proposes the boundaries (a
/// non-parametric detector: it needs no model of the noise, which on a shared machine is anything but normal); only
/// boundaries between two commits are candidates (the runs of one commit are one level); each is then kept only if the
/// levels on both sides are long enough and their medians differ by enough, both as a fraction (the budget's minimum
/// step, <see cref="ShiftThresholds"/>) and against the levels' own spread (<see cref="ChangePointSettings"/>), so that
/// noise, the machine's load, a changed spread or one slow run is not reported as a change.
/// </summary>
internal sealed class ChangePointFinder
{
    // Perfolizer answers the index of the last point of each level; a change point here is the first point after it.
    private const int DetectorIndexOffset = 1;

    private readonly ChangePointSettings _settings;

    public ChangePointFinder(ChangePointSettings? settings = null)
    {
        _settings = settings ?? ChangePointSettings.Default;
        _settings.Validate();
    }

    /// <summary>
    /// True for the kinds whose figures are timed (latency, rates, efficiency and timed CPU cost), which move with the
    /// machine and are read as a series. Counted and exact kinds (instructions, bytes, counts) move only when the code
    /// does; one run against its base says all there is. So do the paired kinds (head ÷ base in one run): each figure
    /// is already a change against its base, and a regression is one run's figure, not a new level.
    /// </summary>
    public static bool IsTimed(string kind) =>
        BudgetKind.TryParse(kind, out var parsed) && ((parsed.IsWallClock && !parsed.IsPaired) || parsed == BudgetKind.CpuCostMax);

    /// <summary>The settings the finder runs with.</summary>
    public ChangePointSettings Settings => _settings;

    /// <summary>
    /// The change points of <paramref name="series"/> (oldest first), in order, with the settings' minimum step, else
    /// <see cref="ChangePointSettings.FallbackMinRelativeShift"/>; none for a series too short to hold two levels.
    /// </summary>
    public IReadOnlyList<ChangePoint> Find(IReadOnlyList<CommitFigure> series) =>
        Find(series, _settings.MinRelativeShift ?? ChangePointSettings.FallbackMinRelativeShift);

    /// <summary>
    /// The change points of <paramref name="series"/> (oldest first), in order: each at a run whose commit differs from
    /// the run before it, where the medians of the levels on each side differ by at least <paramref name="minShift"/>
    /// (the larger over the smaller − 1) and by the settings' significance. None when <paramref name="minShift"/> is
    /// infinite (no step counts) or the series is too short to hold two levels. With <paramref name="minAbsolute"/> above 0
    /// (the budget's absolute noise floor, in its unit) the medians must also differ by more than that: a figure that
    /// wanders around zero moves by any percentage.
    /// </summary>
    /// <remarks>
    /// A boundary between two runs of one commit is never a change point: the code on both sides is the same, so a
    /// step there is the machine's (on the real gate runs, every one of seven such steps was: runs beside other
    /// builds). The runs of one commit therefore stay in one level: a boundary ED-PELT proposes inside a commit's runs
    /// is replaced by the two commit boundaries around those runs, and each level is judged by all the runs of its
    /// commits. With one run per commit (CI's usual series) every boundary is a commit's, and nothing changes.
    /// </remarks>
    public IReadOnlyList<ChangePoint> Find(IReadOnlyList<CommitFigure> series, double minShift, double minAbsolute = 0)
    {
        ArgumentNullException.ThrowIfNull(series);
        if (!(minShift > 0))
        {
            throw new ArgumentOutOfRangeException(nameof(minShift), minShift, "The minimum step is a positive fraction.");
        }

        if (!(minAbsolute >= 0) || double.IsInfinity(minAbsolute))
        {
            throw new ArgumentOutOfRangeException(nameof(minAbsolute), minAbsolute, "The minimum absolute step is a number in the budget's unit, 0 or more.");
        }

        var figures = series.Select(p => p.Figure).Where(double.IsFinite).ToArray();
        if (figures.Length != series.Count)
        {
            // A run that measured nothing (NaN) has no place in a level; the caller leaves such runs out.
            throw new ArgumentException("Every figure of a series must be a finite number.", nameof(series));
        }

        if (figures.Length < 2 * _settings.MinSegmentLength || double.IsPositiveInfinity(minShift))
        {
            return [];
        }

        // Each boundary is the index of the first point of a new level, and the first run of a commit.
        var commitStarts = Enumerable.Range(1, figures.Length - 1)
            .Where(i => !string.Equals(series[i].Commit, series[i - 1].Commit, StringComparison.Ordinal))
            .ToArray();
        var boundaries = EdPeltChangePointDetector.Instance
            .GetChangePointIndexes(figures, _settings.MinSegmentLength)
            .Select(index => index + DetectorIndexOffset)
            .Where(index => index > 0 && index < figures.Length)
            .SelectMany(index => CommitBoundaries(commitStarts, index))
            .Distinct()
            .Order()
            .ToList();

        // Drop the weakest boundary while any falls short, so that the levels on each side of the rest are merged
        // before they are judged again: two small steps of one slow drift then read as the one shift they add up to.
        // A boundary with a level shorter than the minimum goes first (the one with the smallest step of those), so a
        // commit boundary that only brackets a few runs yields to its neighbour.
        while (boundaries.Count > 0)
        {
            var weakest = -1;
            var weakestKey = (Long: true, Step: double.PositiveInfinity);
            var sigma = Sigma(figures, boundaries);
            for (var i = 0; i < boundaries.Count; i++)
            {
                var (before, after) = Levels(figures, boundaries, i);
                var isLong = before.Length >= _settings.MinSegmentLength && after.Length >= _settings.MinSegmentLength;
                var (medianBefore, medianAfter) = (Quantiles.Median(before), Quantiles.Median(after));
                var step = Step(medianBefore, medianAfter);
                var falls = !isLong || step < minShift || WithinFloor(medianBefore, medianAfter, minAbsolute)
                    || Significance(medianBefore, medianAfter, before.Length, after.Length, sigma) < _settings.MinSignificance;
                if (falls && (weakest < 0 || (!isLong && weakestKey.Long) || (isLong == weakestKey.Long && step < weakestKey.Step)))
                {
                    weakest = i;
                    weakestKey = (isLong, step);
                }
            }

            if (weakest < 0)
            {
                break;
            }

            boundaries.RemoveAt(weakest);
        }

        if (commitStarts.Length < figures.Length - 1)
        {
            Refine(figures, commitStarts, boundaries, minShift, minAbsolute);
        }

        var changes = new List<ChangePoint>(boundaries.Count);
        for (var i = 0; i < boundaries.Count; i++)
        {
            var (before, after) = Levels(figures, boundaries, i);
            var medianBefore = Quantiles.Median(before);
            var medianAfter = Quantiles.Median(after);
            changes.Add(new ChangePoint(boundaries[i], series[boundaries[i]].Commit, medianBefore, medianAfter, Shift(medianBefore, medianAfter)));
        }

        return changes;
    }

    // ED-PELT may place a step a few runs off where it is; on a series of several runs per commit the run it names can
    // be the start of a neighbouring commit. So there (with one run per commit ED-PELT's place stands), each boundary
    // kept moves to the commit boundary within MinSegmentLength runs of it that splits its two levels best: the least
    // sum of each run's distance from its level's median (the L1 cost, robust to a slow run as the medians are), as
    // long as both levels keep MinSegmentLength runs and the step stays at least minShift.
    private void Refine(double[] figures, int[] commitStarts, List<int> boundaries, double minShift, double minAbsolute)
    {
        for (var i = 0; i < boundaries.Count; i++)
        {
            var start = i == 0 ? 0 : boundaries[i - 1];
            var end = i == boundaries.Count - 1 ? figures.Length : boundaries[i + 1];
            var best = boundaries[i];
            var bestCost = SplitCost(figures, start, best, end);
            foreach (var candidate in commitStarts)
            {
                if (Math.Abs(candidate - boundaries[i]) > _settings.MinSegmentLength
                    || candidate - start < _settings.MinSegmentLength || end - candidate < _settings.MinSegmentLength)
                {
                    continue;
                }

                var (medianBefore, medianAfter) = (Quantiles.Median(figures[start..candidate]), Quantiles.Median(figures[candidate..end]));
                if (Step(medianBefore, medianAfter) < minShift || WithinFloor(medianBefore, medianAfter, minAbsolute))
                {
                    continue;
                }

                var cost = SplitCost(figures, start, candidate, end);
                if (cost < bestCost)
                {
                    best = candidate;
                    bestCost = cost;
                }
            }

            boundaries[i] = best;
        }
    }

    private static double SplitCost(double[] figures, int start, int boundary, int end) =>
        LevelCost(figures[start..boundary]) + LevelCost(figures[boundary..end]);

    private static double LevelCost(double[] level)
    {
        var median = Quantiles.Median(level);
        return level.Sum(figure => Math.Abs(figure - median));
    }

    // The commit boundaries a proposed boundary stands for: itself when a commit starts there, else the start and the
    // end of the run of one commit it falls inside (those at the series' ends left out).
    private static IEnumerable<int> CommitBoundaries(int[] commitStarts, int index)
    {
        var at = Array.BinarySearch(commitStarts, index);
        if (at >= 0)
        {
            yield return index;
            yield break;
        }

        var next = ~at;
        if (next > 0)
        {
            yield return commitStarts[next - 1];
        }

        if (next < commitStarts.Length)
        {
            yield return commitStarts[next];
        }
    }

    // The step between two medians, direction-free: the larger over the smaller − 1 (0.25 for 12 → 15 and for 15 → 12),
    // so that an at-least kind's drop and an at-most kind's rise are held to one measure. From or to zero (or across
    // it) it is the relative shift's size.
    private static double Step(double before, double after) =>
        before > 0 && after > 0 ? Math.Max(before, after) / Math.Min(before, after) - 1 : Math.Abs(Shift(before, after));

    // A step no larger than the budget's absolute noise floor is noise, as a baseline comparison holds it (0: no floor).
    private static bool WithinFloor(double before, double after, double minAbsolute) =>
        minAbsolute > 0 && Math.Abs(after - before) <= minAbsolute;

    private static (double[] Before, double[] After) Levels(double[] figures, List<int> boundaries, int i)
    {
        var start = i == 0 ? 0 : boundaries[i - 1];
        var end = i == boundaries.Count - 1 ? figures.Length : boundaries[i + 1];
        return (figures[start..boundaries[i]], figures[boundaries[i]..end]);
    }

    // How many standard errors apart the two medians are. The noise σ is taken from the whole series as its levels
    // stand (1.4826 × the median absolute deviation of every run from its level's median: the standard deviation for
    // normal noise, unmoved by a few slow runs, and steadier than one short level's own); a median of n runs has a
    // standard error of 1.2533 σ / √n.
    private static double Significance(double medianBefore, double medianAfter, int runsBefore, int runsAfter, double sigma)
    {
        var difference = Math.Abs(medianAfter - medianBefore);
        var error = 1.2533 * sigma * Math.Sqrt(1.0 / runsBefore + 1.0 / runsAfter);
        return error > 0 ? difference / error : difference > 0 ? double.PositiveInfinity : 0;
    }

    private static double Sigma(double[] figures, List<int> boundaries)
    {
        var deviations = new double[figures.Length];
        var start = 0;
        foreach (var end in boundaries.Append(figures.Length))
        {
            var median = Quantiles.Median(figures[start..end]);
            for (var i = start; i < end; i++)
            {
                deviations[i] = Math.Abs(figures[i] - median);
            }

            start = end;
        }

        return 1.4826 * Quantiles.Median(deviations);
    }

    private static double Shift(double before, double after) =>
        before != 0 ? (after - before) / Math.Abs(before) : after == 0 ? 0 : double.PositiveInfinity * Math.Sign(after);
}
