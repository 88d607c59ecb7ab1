namespace PerfBudgets.Server.Storage;

/// <summary>One page of a budget's series (<see cref="IResultsStorage.GetSeriesPageAsync"/>), oldest first.</summary>
/// <param name="Points">The page's runs, oldest first.</param>
/// <param name="HasOlder">True when the branch has older runs of the budget than the page's first.</param>
internal sealed record SeriesPage(IReadOnlyList<SeriesPoint> Points, bool HasOlder);
