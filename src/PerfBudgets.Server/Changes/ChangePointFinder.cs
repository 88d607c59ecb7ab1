using PerfBudgets.Budgets;
using Perfolizer.Mathematics.Cpd;

namespace PerfBudgets.Server.Changes;

/// <summary>
/// Finds where a timed budget's series shifted from one commit on. Perfolizer's ED-PELT proposes the boundaries (a
/// non-parametric detector: it needs no model of the noise, which on a shared machine is anything but normal); each is
/// then kept only if the levels on both sides are long enough and their medians differ by enough, both as a fraction and
/// against the levels' own spread (<see cref="ChangePointSettings"/>), so that noise, a changed spread or one slow run
/// is not reported as a change.
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
    /// does; one run against its base says all there is.
    /// </summary>
    public static bool IsTimed(string kind) =>
        BudgetKind.TryParse(kind, out var parsed) && (parsed.IsWallClock || parsed == BudgetKind.CpuCostMax);

    /// <summary>The change points of <paramref name="series"/> (oldest first), in order; none for a series too short to hold two levels.</summary>
    public IReadOnlyList<ChangePoint> Find(IReadOnlyList<CommitFigure> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var figures = series.Select(p => p.Figure).Where(double.IsFinite).ToArray();
        if (figures.Length != series.Count)
        {
            // A run that measured nothing (NaN) has no place in a level; the caller leaves such runs out.
            throw new ArgumentException("Every figure of a series must be a finite number.", nameof(series));
        }

        if (figures.Length < 2 * _settings.MinSegmentLength)
        {
            return [];
        }

        // Each boundary is the index of the first point of a new level.
        var boundaries = EdPeltChangePointDetector.Instance
            .GetChangePointIndexes(figures, _settings.MinSegmentLength)
            .Select(index => index + DetectorIndexOffset)
            .Where(index => index > 0 && index < figures.Length)
            .Distinct()
            .Order()
            .ToList();

        // Drop the weakest boundary while any falls short, so that the levels on each side of the rest are merged
        // before they are judged again: two small steps of one slow drift then read as the one shift they add up to.
        while (boundaries.Count > 0)
        {
            var weakest = -1;
            var weakestShift = double.PositiveInfinity;
            var sigma = Sigma(figures, boundaries);
            for (var i = 0; i < boundaries.Count; i++)
            {
                var (before, after) = Levels(figures, boundaries, i);
                var shift = before.Length < _settings.MinSegmentLength || after.Length < _settings.MinSegmentLength
                    ? 0
                    : Math.Abs(Shift(Median(before), Median(after)));
                var falls = shift < _settings.MinRelativeShift || Significance(before, after, sigma) < _settings.MinSignificance;
                if (falls && (weakest < 0 || shift < weakestShift))
                {
                    weakest = i;
                    weakestShift = shift;
                }
            }

            if (weakest < 0)
            {
                break;
            }

            boundaries.RemoveAt(weakest);
        }

        var changes = new List<ChangePoint>(boundaries.Count);
        for (var i = 0; i < boundaries.Count; i++)
        {
            var (before, after) = Levels(figures, boundaries, i);
            var medianBefore = Median(before);
            var medianAfter = Median(after);
            changes.Add(new ChangePoint(boundaries[i], series[boundaries[i]].Commit, medianBefore, medianAfter, Shift(medianBefore, medianAfter)));
        }

        return changes;
    }

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
    private static double Significance(double[] before, double[] after, double sigma)
    {
        var difference = Math.Abs(Median(after) - Median(before));
        var error = 1.2533 * sigma * Math.Sqrt(1.0 / before.Length + 1.0 / after.Length);
        return error > 0 ? difference / error : difference > 0 ? double.PositiveInfinity : 0;
    }

    private static double Sigma(double[] figures, List<int> boundaries)
    {
        var deviations = new double[figures.Length];
        var start = 0;
        foreach (var end in boundaries.Append(figures.Length))
        {
            var median = Median(figures[start..end]);
            for (var i = start; i < end; i++)
            {
                deviations[i] = Math.Abs(figures[i] - median);
            }

            start = end;
        }

        return 1.4826 * Median(deviations);
    }

    private static double Square(double value) => value * value;

    private static double Shift(double before, double after) =>
        before != 0 ? (after - before) / Math.Abs(before) : after == 0 ? 0 : double.PositiveInfinity * Math.Sign(after);

    private static double Median(double[] values)
    {
        var sorted = values.Order().ToArray();
        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
