using PerfBudgets.Server.Changes;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// Where a budget's series shifted, drawn on the budget page's chart as a mark at the commit of each change point
/// (<c>line.change-point</c>) and listed under it: <see cref="ChangePointFinder"/> with its default settings, for the
/// timed kinds only (a counted or exact figure moves only when the code does, and its chart shows that plainly).
/// </summary>
internal static class ChangePointMarks
{
    /// <summary>The indexes into <paramref name="series"/> (oldest first) of the first point of each new level.</summary>
    public static IReadOnlyList<int> Find(IReadOnlyList<SeriesPoint> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        if (series.Count == 0 || !ChangePointFinder.IsTimed(series[^1].Kind))
        {
            return [];
        }

        // The runs that measured the budget as the kind it is now; the finder's indexes are mapped back to the series'.
        var measured = Enumerable.Range(0, series.Count)
            .Where(i => series[i].Kind == series[^1].Kind && series[i].Verdict != "not-measured" && double.IsFinite(series[i].Measured))
            .ToList();
        return new ChangePointFinder().Find(measured.Select(i => new CommitFigure(series[i].Commit, series[i].Measured)).ToList())
            .Select(change => measured[change.Index])
            .ToList();
    }
}
