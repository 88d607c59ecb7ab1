using System.Data;
using System.Globalization;
using System.Text;

namespace PerfBudgets.Server.Storage;

internal abstract partial class AdoResultsStorage
{
    // The nearest-ancestor search as one recursive query, whatever the depth: the walk starts at the commit's stored
    // parents and the ones the caller names, follows the stored commit graph a generation a step up to the depth
    // limit, and stops going further up from any commit that has a run (its ancestors are farther than it). UNION keeps
    // each (commit, distance) once, so the walk's rows are at most the depth times the graph's width. The nearest commit
    // with a run wins; at one distance, the smallest hash, so that the answer does not depend on the plan.
    public async Task<string?> NearestAncestorWithRunAsync(string project, string commit, IReadOnlyList<string> knownParents, int maxDepth,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(knownParents);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxDepth);
        var known = new StringBuilder();
        for (var i = 0; i < knownParents.Count; i++)
        {
            known.Append(CultureInfo.InvariantCulture, $"    UNION SELECT p.id, @known{i}, 1 FROM project p\n");
        }

        // The project's id rides along as a column of the walk, so that each step's look-up of a commit's parents is
        // keyed by the row being walked: with the id as a constant, SQLite 3.53 planned the step as a scan of the
        // project's whole graph per row (300 ms for 1,000 generations of 5,000 edges, against 2 ms).
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, $"""
            WITH RECURSIVE project(id) AS (SELECT id FROM projects WHERE name = @project),
            walk(project_id, sha, depth) AS (
                SELECT c.project_id, c.parent_sha, 1 FROM commit_parents c JOIN project p ON c.project_id = p.id
                WHERE c.commit_sha = @commit
            {known}    UNION
                SELECT c.project_id, c.parent_sha, w.depth + 1 FROM walk w JOIN commit_parents c ON c.project_id = w.project_id AND c.commit_sha = w.sha
                WHERE w.depth < @maxDepth
                  AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.project_id = w.project_id AND r.commit_sha = w.sha)
            )
            SELECT w.sha FROM walk w
            WHERE w.sha <> @commit
              AND EXISTS (SELECT 1 FROM runs r WHERE r.project_id = w.project_id AND r.commit_sha = w.sha)
            ORDER BY w.depth, w.sha
            LIMIT 1
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@commit", commit, DbType.String);
        Add(command, "@maxDepth", maxDepth, DbType.Int32);
        for (var i = 0; i < knownParents.Count; i++)
        {
            Add(command, string.Create(CultureInfo.InvariantCulture, $"@known{i}"), knownParents[i], DbType.String);
        }

        return await command.ExecuteScalarAsync(cancellationToken) as string;
    }
}
