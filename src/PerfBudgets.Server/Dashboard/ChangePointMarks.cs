using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// CHANGE-POINT HOOK: where a budget's series shifted, drawn on the budget page's chart as a mark at the commit of
/// each change point (<c>line.change-point</c>) and listed under it. Change-point detection (ChangePointFinder, for the
/// timed kinds) is built apart from the dashboard; until it is wired in here, no change point is drawn.
/// </summary>
internal static class ChangePointMarks
{
    /// <summary>The indexes into <paramref name="series"/> (oldest first) of the first point of each new level.</summary>
    public static IReadOnlyList<int> Find(IReadOnlyList<SeriesPoint> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        return [];
    }
}
