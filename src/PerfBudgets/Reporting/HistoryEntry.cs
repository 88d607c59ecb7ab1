namespace PerfBudgets.Reporting;

/// <summary>One line of <c>history.jsonl</c>: a recorded result and the run it came from.</summary>
/// <param name="RunId">The run (<see cref="RunIdentity.RunId"/>).</param>
/// <param name="Commit">The commit measured, when known.</param>
/// <param name="Budget">Budget name.</param>
/// <param name="Kind">The budget kind's name, or <see cref="BudgetResult.InfoKind"/>.</param>
/// <param name="Measured">What the run measured.</param>
/// <param name="Limit">The limit in force, or null.</param>
/// <param name="Unit">Unit of both.</param>
/// <param name="Verdict">The verdict recorded.</param>
/// <param name="Profile">The active profile.</param>
/// <param name="TimestampUtc">When it was measured.</param>
public sealed record HistoryEntry(
    string RunId,
    string? Commit,
    string Budget,
    string Kind,
    double Measured,
    double? Limit,
    string Unit,
    BudgetVerdict Verdict,
    string Profile,
    DateTimeOffset TimestampUtc)
{
    /// <summary>The history line of <paramref name="result"/> in the run <paramref name="run"/>.</summary>
    internal static HistoryEntry Of(BudgetResult result, RunIdentity run)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(run);
        return new HistoryEntry(run.RunId, run.Commit, result.Budget, result.Kind, result.Measured, result.Limit,
            result.Unit, result.Verdict, result.Profile, result.TimestampUtc);
    }

    /// <summary>
    /// One entry per run of <paramref name="entries"/> (oldest first), in the order the runs first appear: a run may
    /// record a budget more than once (a repeated attempt, a suite run twice under one id), and its last entry stands.
    /// </summary>
    public static IReadOnlyList<HistoryEntry> LastPerRun(IEnumerable<HistoryEntry> entries)
    {
        ArgumentNullException.ThrowIfNull(entries);
        return entries.GroupBy(e => e.RunId, StringComparer.Ordinal).Select(run => run.Last()).ToList();
    }
}
