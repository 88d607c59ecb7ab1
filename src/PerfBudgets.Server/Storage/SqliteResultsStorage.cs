using System.Globalization;
using Microsoft.Data.Sqlite;
using PerfBudgets.Server.Upload;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// The results server's storage in one SQLite file: nothing to install. The schema is migrated when the storage is
/// opened (<see cref="SchemaMigrator"/>); every statement is parameterised.
/// </summary>
/// <remarks>
/// SQLite has one writer at a time. Writes of this process queue on a semaphore instead of racing for the file's lock
/// (a lost race is SQLITE_BUSY, an upload refused for nothing), and the journal is WAL so that readers never wait for
/// a writer.
/// </remarks>
internal sealed class SqliteResultsStorage : IResultsStorage, IDisposable
{
    // How far the nearest-ancestor search walks before it gives up: far more than a pull request's merge base is behind.
    private const int MaxAncestorsVisited = 10_000;

    private readonly string _connectionString;
    private readonly SemaphoreSlim _writeGate = new(1, 1);

    /// <summary>Opens (creating if need be) the database file <paramref name="path"/> and migrates it to the latest schema.</summary>
    public SqliteResultsStorage(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        _connectionString = new SqliteConnectionStringBuilder
        {
            DataSource = Path.GetFullPath(path),
            Mode = SqliteOpenMode.ReadWriteCreate,
            ForeignKeys = true,
            DefaultTimeout = 30,
        }.ToString();
        using var connection = Open();
        using (var wal = connection.CreateCommand())
        {
            wal.CommandText = "PRAGMA journal_mode=WAL";
            wal.ExecuteNonQuery();
        }

        SchemaMigrator.Migrate(connection);
    }

    public async Task CreateProjectAsync(string name, byte[] tokenSha256, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(tokenSha256);
        await _writeGate.WaitAsync(cancellationToken);
        try
        {
            await using var connection = Open();
            await using var command = connection.CreateCommand();
            command.CommandText = "INSERT INTO projects (name, token_sha256, created_utc) VALUES ($name, $hash, $created)";
            command.Parameters.AddWithValue("$name", name);
            command.Parameters.AddWithValue("$hash", tokenSha256);
            command.Parameters.AddWithValue("$created", Now());
            await command.ExecuteNonQueryAsync(cancellationToken);
        }
        catch (SqliteException e) when (e.SqliteErrorCode == 19)
        {
            // SQLITE_CONSTRAINT: the name is taken.
            throw new ServerInputException(409, $"Project '{name}' exists already.", e);
        }
        finally
        {
            _writeGate.Release();
        }
    }

    public async Task<byte[]?> TokenHashAsync(string name, CancellationToken cancellationToken)
    {
        await using var connection = Open();
        await using var command = connection.CreateCommand();
        command.CommandText = "SELECT token_sha256 FROM projects WHERE name = $name";
        command.Parameters.AddWithValue("$name", name);
        return await command.ExecuteScalarAsync(cancellationToken) as byte[];
    }

    public async Task<long> AddRunAsync(string project, RunUpload run, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(run);
        await _writeGate.WaitAsync(cancellationToken);
        try
        {
            await using var connection = Open();
            // BEGIN IMMEDIATE: the write lock is taken up front, so a second process's writer waits instead of failing.
            await using var transaction = connection.BeginTransaction(deferred: false);
            var runId = await InsertRunAsync(connection, transaction, project, run, cancellationToken);
            for (var i = 0; i < run.Parents.Count; i++)
            {
                await using var parent = Command(connection, transaction,
                    "INSERT INTO run_parents (run_id, ordinal, parent_sha) VALUES ($run, $ordinal, $parent)");
                parent.Parameters.AddWithValue("$run", runId);
                parent.Parameters.AddWithValue("$ordinal", i);
                parent.Parameters.AddWithValue("$parent", run.Parents[i]);
                await parent.ExecuteNonQueryAsync(cancellationToken);
            }

            await using (var edge = Command(connection, transaction, """
                INSERT OR IGNORE INTO commit_parents (project_id, commit_sha, ordinal, parent_sha)
                SELECT id, $commit, $ordinal, $parent FROM projects WHERE name = $project
                """))
            {
                edge.Parameters.AddWithValue("$project", project);
                var commit = edge.Parameters.Add("$commit", SqliteType.Text);
                var ordinal = edge.Parameters.Add("$ordinal", SqliteType.Integer);
                var parent = edge.Parameters.Add("$parent", SqliteType.Text);
                foreach (var known in run.Ancestry.Prepend(new CommitParents(run.Commit, run.Parents)))
                {
                    for (var i = 0; i < known.Parents.Count; i++)
                    {
                        commit.Value = known.Commit;
                        ordinal.Value = i;
                        parent.Value = known.Parents[i];
                        await edge.ExecuteNonQueryAsync(cancellationToken);
                    }
                }
            }

            await using var result = Command(connection, transaction,
                "INSERT INTO results (run_id, budget, kind, measured, limit_value, unit, verdict) VALUES ($run, $budget, $kind, $measured, $limit, $unit, $verdict)");
            var budget = result.Parameters.Add("$budget", SqliteType.Text);
            var kind = result.Parameters.Add("$kind", SqliteType.Text);
            var measured = result.Parameters.Add("$measured", SqliteType.Real);
            var limit = result.Parameters.Add("$limit", SqliteType.Real);
            var unit = result.Parameters.Add("$unit", SqliteType.Text);
            var verdict = result.Parameters.Add("$verdict", SqliteType.Text);
            result.Parameters.AddWithValue("$run", runId);
            foreach (var r in run.Results)
            {
                budget.Value = r.Budget;
                kind.Value = r.Kind;
                measured.Value = r.Measured;
                limit.Value = r.Limit is { } l ? l : DBNull.Value;
                unit.Value = r.Unit;
                verdict.Value = r.Verdict;
                await result.ExecuteNonQueryAsync(cancellationToken);
            }

            // Nothing is committed unless every row above went in: an exception or a cancelled request rolls back.
            await transaction.CommitAsync(cancellationToken);
            return runId;
        }
        finally
        {
            _writeGate.Release();
        }
    }

    public async Task<string?> RunResultsAsync(string project, string commit, CancellationToken cancellationToken)
    {
        await using var connection = Open();
        await using var command = connection.CreateCommand();
        command.CommandText = """
            SELECT r.results_json FROM runs r JOIN projects p ON p.id = r.project_id
            WHERE p.name = $project AND r.commit_sha = $commit
            ORDER BY r.id DESC LIMIT 1
            """;
        command.Parameters.AddWithValue("$project", project);
        command.Parameters.AddWithValue("$commit", commit);
        return await command.ExecuteScalarAsync(cancellationToken) as string;
    }

    public async Task<string?> NearestAncestorWithRunAsync(string project, string commit, IReadOnlyList<string> knownParents, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(knownParents);
        await using var connection = Open();
        var seen = new HashSet<string>(StringComparer.Ordinal) { commit };
        var queue = new Queue<string>();
        foreach (var parent in knownParents.Concat(await StoredParentsAsync(connection, project, commit, cancellationToken)))
        {
            if (seen.Add(parent))
            {
                queue.Enqueue(parent);
            }
        }

        while (queue.Count > 0 && seen.Count < MaxAncestorsVisited)
        {
            var candidate = queue.Dequeue();
            if (await HasRunAsync(connection, project, candidate, cancellationToken))
            {
                return candidate;
            }

            foreach (var parent in await StoredParentsAsync(connection, project, candidate, cancellationToken))
            {
                if (seen.Add(parent))
                {
                    queue.Enqueue(parent);
                }
            }
        }

        return null;
    }

    public async Task<IReadOnlyList<BudgetLatest>> GetLatestAsync(string project, string branch, CancellationToken cancellationToken)
    {
        await using var connection = Open();
        await using var command = connection.CreateCommand();
        command.CommandText = """
            SELECT x.budget, x.kind, x.unit, x.measured, x.limit_value, x.verdict, r.id, r.commit_sha, r.branch, r.uploaded_utc
            FROM results x JOIN runs r ON r.id = x.run_id
            WHERE r.id = (SELECT MAX(l.id) FROM runs l JOIN projects p ON p.id = l.project_id WHERE p.name = $project AND l.branch = $branch)
            ORDER BY x.budget
            """;
        command.Parameters.AddWithValue("$project", project);
        command.Parameters.AddWithValue("$branch", branch);
        var latest = new List<BudgetLatest>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            latest.Add(new BudgetLatest(reader.GetString(0), reader.GetString(1), reader.GetString(2), reader.GetDouble(3),
                reader.IsDBNull(4) ? null : reader.GetDouble(4), reader.GetString(5), reader.GetInt64(6), reader.GetString(7),
                reader.GetString(8), ParseTime(reader.GetString(9))));
        }

        return latest;
    }

    public async Task<IReadOnlyList<SeriesPoint>> GetSeriesAsync(string project, string budget, string? branch, CancellationToken cancellationToken)
    {
        await using var connection = Open();
        await using var command = connection.CreateCommand();
        command.CommandText = """
            SELECT r.id, r.commit_sha, r.branch, r.uploaded_utc, r.runtime, r.valgrind_version, x.kind, x.unit, x.measured, x.limit_value, x.verdict
            FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id
            WHERE p.name = $project AND x.budget = $budget AND ($branch IS NULL OR r.branch = $branch)
            ORDER BY r.id
            """;
        command.Parameters.AddWithValue("$project", project);
        command.Parameters.AddWithValue("$budget", budget);
        command.Parameters.AddWithValue("$branch", (object?)branch ?? DBNull.Value);
        var series = new List<SeriesPoint>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            double? limit = reader.IsDBNull(9) ? null : reader.GetDouble(9);
            var runtime = reader.GetString(4);
            var previous = series.Count > 0 ? series[^1] : null;
            series.Add(new SeriesPoint(reader.GetInt64(0), reader.GetString(1), reader.GetString(2), ParseTime(reader.GetString(3)), runtime,
                reader.IsDBNull(5) ? null : reader.GetString(5), reader.GetString(6), reader.GetString(7), reader.GetDouble(8), limit,
                reader.GetString(10), LimitChanged: previous is not null && previous.Limit != limit,
                RuntimeChanged: previous is not null && previous.Runtime != runtime));
        }

        return series;
    }

    public async Task<(long Runs, long Results)> CountAsync(string project, CancellationToken cancellationToken)
    {
        await using var connection = Open();
        await using var command = connection.CreateCommand();
        command.CommandText = """
            SELECT (SELECT COUNT(*) FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.name = $project),
                   (SELECT COUNT(*) FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id WHERE p.name = $project)
            """;
        command.Parameters.AddWithValue("$project", project);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        await reader.ReadAsync(cancellationToken);
        return (reader.GetInt64(0), reader.GetInt64(1));
    }

    public void Dispose()
    {
        _writeGate.Dispose();
        // Pooled connections keep the file open; a test deletes it after disposing the storage.
        SqliteConnection.ClearAllPools();
    }

    private static async Task<long> InsertRunAsync(SqliteConnection connection, SqliteTransaction transaction, string project, RunUpload run, CancellationToken cancellationToken)
    {
        await using var command = Command(connection, transaction, """
            INSERT INTO runs (project_id, commit_sha, branch, runtime, valgrind_version, machine, uploaded_utc, results_json)
            SELECT id, $commit, $branch, $runtime, $valgrind, $machine, $uploaded, $results FROM projects WHERE name = $project
            RETURNING id
            """);
        command.Parameters.AddWithValue("$project", project);
        command.Parameters.AddWithValue("$commit", run.Commit);
        command.Parameters.AddWithValue("$branch", run.Branch);
        command.Parameters.AddWithValue("$runtime", run.Runtime);
        command.Parameters.AddWithValue("$valgrind", (object?)run.ValgrindVersion ?? DBNull.Value);
        command.Parameters.AddWithValue("$machine", run.Machine);
        command.Parameters.AddWithValue("$uploaded", Now());
        command.Parameters.AddWithValue("$results", run.ResultsJson);
        return await command.ExecuteScalarAsync(cancellationToken) is long id
            ? id
            : throw new ServerInputException(404, $"There is no project '{project}'.");
    }

    private static async Task<bool> HasRunAsync(SqliteConnection connection, string project, string commit, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = "SELECT 1 FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.name = $project AND r.commit_sha = $commit LIMIT 1";
        command.Parameters.AddWithValue("$project", project);
        command.Parameters.AddWithValue("$commit", commit);
        return await command.ExecuteScalarAsync(cancellationToken) is not null;
    }

    private static async Task<List<string>> StoredParentsAsync(SqliteConnection connection, string project, string commit, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = """
            SELECT c.parent_sha FROM commit_parents c JOIN projects p ON p.id = c.project_id
            WHERE p.name = $project AND c.commit_sha = $commit ORDER BY c.ordinal
            """;
        command.Parameters.AddWithValue("$project", project);
        command.Parameters.AddWithValue("$commit", commit);
        var parents = new List<string>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            parents.Add(reader.GetString(0));
        }

        return parents;
    }

    private static SqliteCommand Command(SqliteConnection connection, SqliteTransaction transaction, string sql)
    {
        var command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        return command;
    }

    private static DateTimeOffset ParseTime(string stored) => DateTimeOffset.Parse(stored, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind);

    private static string Now() => DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture);

    private SqliteConnection Open()
    {
        var connection = new SqliteConnection(_connectionString);
        connection.Open();
        return connection;
    }
}
