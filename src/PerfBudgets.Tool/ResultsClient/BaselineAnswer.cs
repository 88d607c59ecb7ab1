namespace PerfBudgets.Tool.ResultsClient;

/// <summary>
/// What the server holds for a base commit: its results.json, or on a miss the results.json of the nearest ancestor
/// it has a run of (<see cref="ComparedCommit"/> then differs from the commit asked for), or neither.
/// </summary>
/// <param name="Commit">The commit asked for.</param>
/// <param name="ComparedCommit">The commit whose run <paramref name="ResultsJson"/> is, or null when there is none.</param>
/// <param name="ResultsJson">That run's results.json, or null.</param>
internal sealed record BaselineAnswer(string Commit, string? ComparedCommit, string? ResultsJson)
{
    /// <summary>True when the run is of an ancestor, not of the commit asked for.</summary>
    public bool IsNearestAncestor => ComparedCommit is not null && ComparedCommit != Commit;
}
