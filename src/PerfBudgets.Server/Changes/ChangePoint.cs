namespace PerfBudgets.Server.Changes;

/// <summary>Where a series shifted: the first run of the new level, with the median of the level before and after.</summary>
/// <param name="Index">The index in the series (oldest first) of the first point after the shift.</param>
/// <param name="Commit">That point's commit: the first commit measured at the new level.</param>
/// <param name="MedianBefore">The median of the segment that ends just before <paramref name="Index"/>.</param>
/// <param name="MedianAfter">The median of the segment that starts at <paramref name="Index"/>.</param>
/// <param name="RelativeShift">(after − before) / |before|: +0.15 is 15% up, whatever the budget's direction.</param>
internal sealed record ChangePoint(int Index, string Commit, double MedianBefore, double MedianAfter, double RelativeShift);
