using System.Data;
using System.Data.Common;
using System.Globalization;
using System.Text;

using static PerfBudgets.Server.Storage.DbCommands;

namespace PerfBudgets.Server.Storage;

internal abstract partial class AdoResultsStorage
{
    // The nearest-ancestor search as one recursive query, whatever the depth: the walk starts at the commit's stored
    // parents and the ones the caller names, follows the stored commit graph a generation a step up to the depth
    // limit, and stops going further up from any commit that has a run (its ancestors are farther than it). UNION keeps
    // each (commit, distance) once, the walk's visited set, so its rows are at most the depth times the graph's width;
    // a graph a writer made wide on purpose (a thousand commits each naming sixteen of the others, with or without
    // cycles) has a width of a thousand, so the rows are also bounded in all (MaxRows) and the walk in time (Timeout),
    // and it ends with its request. The nearest commit with a run wins; at one distance, the smallest hash, so that the
    // answer does not depend on the plan.
    public async Task<NearestAncestor> NearestAncestorWithRunAsync(string project, string commit, IReadOnlyList<string> knownParents,
        AncestorSearch search, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(knownParents);
        ArgumentNullException.ThrowIfNull(search);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(search.MaxDepth);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(search.MaxRows);
        var known = new StringBuilder();
        for (var i = 0; i < knownParents.Count; i++)
        {
            known.Append(CultureInfo.InvariantCulture, $"    UNION SELECT p.id, @known{i}, 1 FROM project p\n");
        }

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(search.Timeout);
        try
        {
            // The project's id rides along as a column of the walk, so that each step's look-up of a commit's parents
            // is keyed by the row being walked: with the id as a constant, SQLite 3.53 planned the step as a scan of the
            // project's whole graph per row (300 ms for 1,000 generations of 5,000 edges, against 2 ms).
            await using var connection = await OpenAsync(deadline.Token);
            await using var command = Command(connection, null, $"""
                WITH RECURSIVE project(id) AS (SELECT id FROM projects WHERE name = @project),
                walk(project_id, sha, depth) AS (
                    SELECT c.project_id, c.parent_sha, 1 FROM commit_parents c JOIN project p ON c.project_id = p.id
                    WHERE c.commit_sha = @commit
                {known}    UNION
                    SELECT c.project_id, c.parent_sha, w.depth + 1 FROM walk w JOIN commit_parents c ON c.project_id = w.project_id AND c.commit_sha = w.sha
                    WHERE w.depth < @maxDepth
                      AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.project_id = w.project_id AND r.commit_sha = w.sha)
                {RecursiveRowLimit}),
                bounded AS (SELECT * FROM walk {OuterRowLimit})
                SELECT (SELECT b.sha FROM bounded b
                        WHERE b.sha <> @commit
                          AND EXISTS (SELECT 1 FROM runs r WHERE r.project_id = b.project_id AND r.commit_sha = b.sha)
                        ORDER BY b.depth, b.sha
                        LIMIT 1),
                       (SELECT COUNT(*) FROM bounded)
                """);
            Add(command, "@project", project, DbType.String);
            Add(command, "@commit", commit, DbType.String);
            Add(command, "@maxDepth", search.MaxDepth, DbType.Int32);
            Add(command, "@maxRows", search.MaxRows, DbType.Int32);
            for (var i = 0; i < knownParents.Count; i++)
            {
                Add(command, string.Create(CultureInfo.InvariantCulture, $"@known{i}"), knownParents[i], DbType.String);
            }

            using var interrupt = InterruptOnCancel(connection, deadline.Token);
            await using var reader = await command.ExecuteReaderAsync(deadline.Token);
            await reader.ReadAsync(deadline.Token);
            var nearest = reader.IsDBNull(0) ? null : reader.GetString(0);
            return new NearestAncestor(nearest, nearest is null && reader.GetInt64(1) >= search.MaxRows ? nameof(ResultsServerOptions.MaxAncestorRows) : null);
        }
        catch (Exception e) when (deadline.IsCancellationRequested && (e is OperationCanceledException || (e is DbException db && IsInterrupted(db))))
        {
            // The request's own end is a cancellation; the deadline alone is an answer: nothing found in the time given.
            cancellationToken.ThrowIfCancellationRequested();
            return new NearestAncestor(null, nameof(ResultsServerOptions.AncestorSearchTimeout));
        }
    }

    /// <summary>
    /// The limit on the rows a recursive query's walk adds, inside its recursive part where the database takes one
    /// there (SQLite: the walk's queue stops filling), else empty.
    /// </summary>
    protected abstract string RecursiveRowLimit { get; }

    /// <summary>
    /// The same limit where the database takes it outside the recursion instead (PostgreSQL evaluates a recursive
    /// query's rows only as they are asked for, so a LIMIT on its reader ends the walk), else empty.
    /// </summary>
    protected abstract string OuterRowLimit { get; }

    /// <summary>
    /// Stops the connection's running statement when <paramref name="cancellationToken"/> is cancelled, where the
    /// driver does not on its own; null where it does.
    /// </summary>
    protected virtual IDisposable? InterruptOnCancel(DbConnection connection, CancellationToken cancellationToken) => null;

    /// <summary>True when <paramref name="exception"/> is a statement stopped by <see cref="InterruptOnCancel"/>.</summary>
    protected virtual bool IsInterrupted(DbException exception) => false;
}
