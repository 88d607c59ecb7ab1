namespace PerfBudgets.Tool.ResultsClient;

/// <summary>A change point the results server found in a timed budget's series (<c>GET …/changes</c>).</summary>
/// <param name="Budget">The budget.</param>
/// <param name="Kind">Its kind.</param>
/// <param name="Unit">The unit of its figures.</param>
/// <param name="Commit">The first commit measured at the new level.</param>
/// <param name="MedianBefore">The median of the level before.</param>
/// <param name="MedianAfter">The median of the level from <paramref name="Commit"/> on.</param>
/// <param name="RelativeShift">(after − before) / |before|.</param>
/// <param name="RunsAfter">How many runs of the series are at or after <paramref name="Commit"/>.</param>
/// <param name="RuntimeChanged">The run at <paramref name="Commit"/> ran on another runtime than the one before it.</param>
internal sealed record ReportedChange(string Budget, string Kind, string Unit, string Commit, double MedianBefore, double MedianAfter, double RelativeShift, int RunsAfter, bool RuntimeChanged);
