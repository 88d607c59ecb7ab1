using PerfBudgets.Server.Changes;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// What a budget page needs of the budget's whole series on its branch, computed once per upload
/// (<see cref="ChangePointCache"/>) while the page itself reads only its runs: how many runs there are, and the change
/// points, each with the id of the run it is at.
/// </summary>
/// <param name="Runs">The number of runs searched (the newest <see cref="ResultsServerOptions.ChangePointRuns"/> at most).</param>
/// <param name="ChangePoints">The change points (<see cref="ChangePointMarks.Find"/>), oldest first, with the run each is at.</param>
internal sealed record SeriesMarks(int Runs, IReadOnlyList<(long RunId, ChangePoint Change)> ChangePoints);
