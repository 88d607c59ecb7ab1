using PerfBudgets.Server.Changes;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// CHANGE-POINT HOOK: where a budget's series shifted, drawn on the budget page's chart as a mark at the commit of
/// each change point (<c>line.change-point</c>) and listed under it. The points come from <see cref="ChangePointFinder"/>
/// on the same runs the changes endpoint reads (<see cref="ProjectChanges"/>): only timed kinds, and only runs that
/// measured the budget as its latest kind.
/// </summary>
internal static class ChangePointMarks
{
    /// <summary>
    /// The change points of <paramref name="series"/> (oldest first), each with <see cref="ChangePoint.Index"/> the index
    /// into <paramref name="series"/> of the first run of the new level; none for a kind that is not timed.
    /// </summary>
    /// <summary>The number of runs of <paramref name="series"/> and its change points, each with the run it is at.</summary>
    public static SeriesMarks ForSeries(string budget, IReadOnlyList<SeriesPoint> series, ShiftThresholds thresholds)
    {
        ArgumentNullException.ThrowIfNull(series);
        return new SeriesMarks(series.Count, Find(budget, series, thresholds).Select(c => (series[c.Index].RunId, c)).ToList());
    }

    public static IReadOnlyList<ChangePoint> Find(string budget, IReadOnlyList<SeriesPoint> series, ShiftThresholds thresholds)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(thresholds);
        if (series.Count == 0 || !ChangePointFinder.IsTimed(series[^1].Kind))
        {
            return [];
        }

        var kind = series[^1].Kind;
        // The step the latest run's recorded noise gives, as the changes endpoint takes it from the branch's latest run.
        var (minShift, minAbsolute, _) = thresholds.For(budget, kind, ShiftThresholds.Recorded(series[^1].Noise, series[^1].NoiseAbsolute));
        var measured = series.Select((point, index) => (Point: point, Index: index))
            .Where(p => p.Point.Kind == kind && p.Point.Verdict != "not-measured" && p.Point.Measured is not null)
            .ToList();
        return new ChangePointFinder().Find(measured.Select(p => new CommitFigure(p.Point.Commit, p.Point.Measured!.Value)).ToList(), minShift, minAbsolute)
            .Select(change => change with { Index = measured[change.Index].Index })
            .ToList();
    }
}
