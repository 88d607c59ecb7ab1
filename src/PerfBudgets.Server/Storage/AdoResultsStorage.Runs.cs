using System.Data;
using System.Data.Common;
using PerfBudgets.Server.Upload;
using static PerfBudgets.Server.Storage.DbCommands;

namespace PerfBudgets.Server.Storage;

// Storing an uploaded run: its row, its parents, the commit graph its ancestry names, and its figures, in one transaction.
internal abstract partial class AdoResultsStorage
{
    public async Task<StoredRun> AddRunAsync(string project, RunUpload run, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(run);
        try
        {
            return await WriteRunAsync(project, run, cancellationToken);
        }
        catch (DbException e) when (run.IdempotencyKey is not null && IsUniqueViolation(e))
        {
            // Another server process stored a run with this key between this one's look-up and its insert: answer with it.
            await using var connection = await OpenAsync(cancellationToken);
            return await StoredWithKeyAsync(connection, null, project, run, cancellationToken)
                ?? throw new InvalidOperationException("A run with the upload's idempotency key was refused as a duplicate but cannot be found.", e);
        }
    }

    private Task<StoredRun> WriteRunAsync(string project, RunUpload run, CancellationToken cancellationToken) =>
        WriteAsync(async (connection, transaction) =>
        {
            if (run.IdempotencyKey is not null && await StoredWithKeyAsync(connection, transaction, project, run, cancellationToken) is { } earlier)
            {
                return earlier;
            }

            var (runId, projectId) = await InsertRunAsync(connection, transaction, project, run, cancellationToken);
            await BatchInsert.ExecuteAsync(connection, transaction, "INSERT INTO run_parents (run_id, ordinal, parent_sha)", "",
                [DbType.Int64, DbType.Int32, DbType.String],
                run.Parents.Select((parent, ordinal) => new object?[] { runId, ordinal, parent }).ToList(), cancellationToken);

            // An ancestry may name a commit twice (or the run's own commit); the first naming of each edge is kept.
            var edges = new HashSet<(string Commit, int Ordinal)>();
            var edgeRows = new List<object?[]>();
            foreach (var known in run.Ancestry.Prepend(new CommitParents(run.Commit, run.Parents)))
            {
                for (var i = 0; i < known.Parents.Count; i++)
                {
                    if (edges.Add((known.Commit, i)))
                    {
                        edgeRows.Add([projectId, known.Commit, i, known.Parents[i]]);
                    }
                }
            }

            await BatchInsert.ExecuteAsync(connection, transaction, "INSERT INTO commit_parents (project_id, commit_sha, ordinal, parent_sha)",
                "ON CONFLICT DO NOTHING", [DbType.Int64, DbType.String, DbType.Int32, DbType.String], edgeRows, cancellationToken);

            await BatchInsert.ExecuteAsync(connection, transaction,
                "INSERT INTO results (run_id, budget, kind, measured, limit_value, unit, verdict, noise, noise_absolute, measured_utc)", "",
                [DbType.Int64, DbType.String, DbType.String, DbType.Double, DbType.Double, DbType.String, DbType.String, DbType.Double, DbType.Double, DbType.String],
                run.Results.Select(r => new object?[]
                {
                    runId, r.Budget, r.Kind, Finite(r.Measured), r.Limit is { } limit ? Finite(limit) : null, r.Unit, r.Verdict, r.Noise, r.NoiseAbsolute,
                    r.MeasuredUtc is { } measuredUtc ? StoredTime.Format(measuredUtc) : null,
                }).ToList(), cancellationToken);
            return new StoredRun(runId, Replayed: false);
        }, cancellationToken);

    // The run stored earlier with the upload's idempotency key, or null; one of another commit or results.json is 422.
    private static async Task<StoredRun?> StoredWithKeyAsync(DbConnection connection, DbTransaction? transaction, string project, RunUpload run,
        CancellationToken cancellationToken)
    {
        await using var command = Command(connection, transaction, """
            SELECT r.id, r.commit_sha, r.results_json FROM runs r JOIN projects p ON p.id = r.project_id
            WHERE p.name = @project AND r.idempotency_key = @key
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@key", run.IdempotencyKey, DbType.String);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        if (!await reader.ReadAsync(cancellationToken))
        {
            return null;
        }

        return reader.GetString(1) == run.Commit && reader.GetString(2) == run.ResultsJson
            ? new StoredRun(reader.GetInt64(0), Replayed: true)
            : throw new ServerInputException(422,
                $"Idempotency-Key '{run.IdempotencyKey}' was sent with another run (of commit {reader.GetString(1)}); a retry sends the same run, a new run a new key.");
    }

    private static async Task<(long RunId, long ProjectId)> InsertRunAsync(DbConnection connection, DbTransaction transaction, string project, RunUpload run,
        CancellationToken cancellationToken)
    {
        await using var command = Command(connection, transaction, """
            INSERT INTO runs (project_id, commit_sha, branch, runtime, valgrind_version, machine, uploaded_utc, results_json, idempotency_key)
            SELECT id, @commit, @branch, @runtime, @valgrind, @machine, @uploaded, @results, @key FROM projects
            WHERE name = @project AND (@token IS NULL OR token_sha256 = @token)
            RETURNING id, project_id
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@token", run.WriteTokenSha256, DbType.Binary);
        Add(command, "@commit", run.Commit, DbType.String);
        Add(command, "@branch", run.Branch, DbType.String);
        Add(command, "@runtime", run.Runtime, DbType.String);
        Add(command, "@valgrind", run.ValgrindVersion, DbType.String);
        Add(command, "@machine", run.Machine, DbType.String);
        Add(command, "@uploaded", StoredTime.Now(), DbType.String);
        Add(command, "@results", run.ResultsJson, DbType.String);
        Add(command, "@key", run.IdempotencyKey, DbType.String);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        return await reader.ReadAsync(cancellationToken)
            ? (reader.GetInt64(0), reader.GetInt64(1))
            : run.WriteTokenSha256 is null
                ? throw new ServerInputException(404, $"There is no project '{project}'.")
                : throw new ServerInputException(403, $"Project '{project}''s write token was revoked or replaced while the upload arrived; nothing was stored.");
    }

    // A figure the gate could not measure (NaN) or that overflowed is stored as NULL, not measured: SQLite stores NaN as
    // NULL anyway (and refused it in a NOT NULL column: 500), PostgreSQL keeps it, and no JSON number holds either.
    private static double? Finite(double figure) => double.IsFinite(figure) ? figure : null;
}
