using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Changes;

/// <summary>
/// The change points of a project's timed budgets on one branch: each timed budget of the branch's latest run, its
/// series over the branch's newest runs (at most <see cref="ResultsServerOptions.ChangePointRuns"/>,
/// <see cref="IResultsStorage.GetSeriesPageAsync"/>), and <see cref="ChangePointFinder"/>
/// on it with the budget's minimum step (the finder's settings, else <see cref="ShiftThresholds"/>).
/// </summary>
internal static class ProjectChanges
{
    /// <summary>
    /// Every change point of <paramref name="project"/>'s timed budgets on <paramref name="branch"/>, by budget then
    /// commit; only those within the last <paramref name="lastRuns"/> runs of each series when it is given.
    /// </summary>
    public static async Task<IReadOnlyList<BudgetChange>> FindAsync(IResultsStorage storage, string project, string branch, int? lastRuns,
        ChangePointFinder finder, ShiftThresholds thresholds, int windowRuns, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(storage);
        ArgumentNullException.ThrowIfNull(finder);
        ArgumentNullException.ThrowIfNull(thresholds);
        var changes = new List<BudgetChange>();
        foreach (var budget in await storage.GetLatestAsync(project, branch, cancellationToken))
        {
            // A search is CPU between its reads: a reader who has gone stops it here, budget by budget.
            cancellationToken.ThrowIfCancellationRequested();
            var (minShift, minAbsolute, source) = MinShift(finder, thresholds, budget.Budget, budget.Kind,
                ShiftThresholds.Recorded(budget.Noise, budget.NoiseAbsolute));
            if (!ChangePointFinder.IsTimed(budget.Kind) || double.IsPositiveInfinity(minShift))
            {
                // Not timed, or a budget whose noise threshold says no step of its figure is a change.
                continue;
            }

            // Runs that measured nothing, or measured it as another kind (a budget redefined), are no level of it.
            var series = (await storage.GetSeriesPageAsync(project, budget.Budget, branch, windowRuns, null, cancellationToken)).Points
                .Where(p => p.Kind == budget.Kind && p.Verdict != "not-measured" && p.Measured is not null)
                .ToList();
            foreach (var change in finder.Find(series.Select(p => new CommitFigure(p.Commit, p.Measured!.Value)).ToList(), minShift, minAbsolute))
            {
                var runsAfter = series.Count - change.Index;
                if (lastRuns is { } last && runsAfter > last)
                {
                    continue;
                }

                changes.Add(new BudgetChange(budget.Budget, budget.Kind, budget.Unit, change.Commit, change.Index, runsAfter,
                    change.MedianBefore, change.MedianAfter, change.RelativeShift, minShift, source, series[change.Index].RuntimeChanged)
                {
                    MinShiftAbsolute = minAbsolute,
                });
            }
        }

        return changes;
    }

    /// <summary>
    /// The smallest step that counts for a budget: the finder's own (<c>minShift</c> asked for, no absolute floor), else
    /// <paramref name="thresholds"/>' with the noise <paramref name="recorded"/> with the budget's latest run.
    /// </summary>
    public static MinimumStep MinShift(ChangePointFinder finder, ShiftThresholds thresholds, string budget, string kind, RecordedNoise? recorded)
    {
        ArgumentNullException.ThrowIfNull(finder);
        ArgumentNullException.ThrowIfNull(thresholds);
        return finder.Settings.MinRelativeShift is { } asked ? new MinimumStep(asked, 0, "query") : thresholds.For(budget, kind, recorded);
    }
}
