using System.Data;
using System.Data.Common;
using System.Globalization;
using PerfBudgets.Server.Upload;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// The storage calls in SQL both databases speak (parameters as <c>@name</c>, <c>ON CONFLICT DO NOTHING</c>,
/// <c>RETURNING</c>); <see cref="SqliteResultsStorage"/> and <see cref="PostgresResultsStorage"/> say how to connect,
/// how a write transaction begins and which errors mean what. Every statement is parameterised.
/// </summary>
internal abstract class AdoResultsStorage : IResultsStorage, IDisposable
{
    // How far the nearest-ancestor search walks before it gives up: far more than a pull request's merge base is behind.
    private const int MaxAncestorsVisited = 10_000;

    // A write that lost a deadlock or a serialization race to another upload is tried again, whole, this many times.
    private const int WriteAttempts = 3;

    // Null where the database orders concurrent writers itself (PostgreSQL); one at a time for SQLite.
    private readonly SemaphoreSlim? _writeGate;

    protected AdoResultsStorage(bool oneWriterAtATime) => _writeGate = oneWriterAtATime ? new SemaphoreSlim(1, 1) : null;

    public async Task CreateProjectAsync(string name, byte[] tokenSha256, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(tokenSha256);
        try
        {
            await WriteAsync(async (connection, transaction) =>
            {
                await using var command = Command(connection, transaction, "INSERT INTO projects (name, token_sha256, created_utc) VALUES (@name, @hash, @created)");
                Add(command, "@name", name, DbType.String);
                Add(command, "@hash", tokenSha256, DbType.Binary);
                Add(command, "@created", Now(), DbType.String);
                await command.ExecuteNonQueryAsync(cancellationToken);
                return 0L;
            }, cancellationToken);
        }
        catch (DbException e) when (IsUniqueViolation(e))
        {
            throw new ServerInputException(409, $"Project '{name}' exists already.", e);
        }
    }

    public async Task<byte[]?> TokenHashAsync(string name, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, "SELECT token_sha256 FROM projects WHERE name = @name");
        Add(command, "@name", name, DbType.String);
        return await command.ExecuteScalarAsync(cancellationToken) as byte[];
    }

    public async Task SetReadTokenAsync(string name, byte[] tokenSha256, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(tokenSha256);
        var updated = await WriteAsync(async (connection, transaction) =>
        {
            await using var command = Command(connection, transaction, "UPDATE projects SET read_token_sha256 = @hash WHERE name = @name");
            Add(command, "@name", name, DbType.String);
            Add(command, "@hash", tokenSha256, DbType.Binary);
            return (long)await command.ExecuteNonQueryAsync(cancellationToken);
        }, cancellationToken);
        if (updated == 0)
        {
            throw new ServerInputException(404, $"There is no project '{name}'.");
        }
    }

    public async Task<byte[]?> ReadTokenHashAsync(string name, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, "SELECT read_token_sha256 FROM projects WHERE name = @name");
        Add(command, "@name", name, DbType.String);
        return await command.ExecuteScalarAsync(cancellationToken) as byte[];
    }

    public Task<long> AddRunAsync(string project, RunUpload run, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(run);
        return WriteAsync(async (connection, transaction) =>
        {
            var runId = await InsertRunAsync(connection, transaction, project, run, cancellationToken);
            await using (var parent = Command(connection, transaction, "INSERT INTO run_parents (run_id, ordinal, parent_sha) VALUES (@run, @ordinal, @parent)"))
            {
                Add(parent, "@run", runId, DbType.Int64);
                var ordinal = Add(parent, "@ordinal", 0, DbType.Int32);
                var sha = Add(parent, "@parent", "", DbType.String);
                for (var i = 0; i < run.Parents.Count; i++)
                {
                    ordinal.Value = i;
                    sha.Value = run.Parents[i];
                    await parent.ExecuteNonQueryAsync(cancellationToken);
                }
            }

            await using (var edge = Command(connection, transaction, """
                INSERT INTO commit_parents (project_id, commit_sha, ordinal, parent_sha)
                SELECT id, @commit, @ordinal, @parent FROM projects WHERE name = @project
                ON CONFLICT DO NOTHING
                """))
            {
                Add(edge, "@project", project, DbType.String);
                var commit = Add(edge, "@commit", "", DbType.String);
                var ordinal = Add(edge, "@ordinal", 0, DbType.Int32);
                var parent = Add(edge, "@parent", "", DbType.String);
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
                """
                INSERT INTO results (run_id, budget, kind, measured, limit_value, unit, verdict, noise, noise_absolute, measured_utc)
                VALUES (@run, @budget, @kind, @measured, @limit, @unit, @verdict, @noise, @noiseAbsolute, @measuredUtc)
                """);
            Add(result, "@run", runId, DbType.Int64);
            var budget = Add(result, "@budget", "", DbType.String);
            var kind = Add(result, "@kind", "", DbType.String);
            var measured = Add(result, "@measured", 0d, DbType.Double);
            var limit = Add(result, "@limit", null, DbType.Double);
            var unit = Add(result, "@unit", "", DbType.String);
            var verdict = Add(result, "@verdict", "", DbType.String);
            var noise = Add(result, "@noise", null, DbType.Double);
            var noiseAbsolute = Add(result, "@noiseAbsolute", null, DbType.Double);
            var measuredUtc = Add(result, "@measuredUtc", null, DbType.String);
            foreach (var r in run.Results)
            {
                noise.Value = r.Noise is { } n ? n : DBNull.Value;
                noiseAbsolute.Value = r.NoiseAbsolute is { } a ? a : DBNull.Value;
                measuredUtc.Value = r.MeasuredUtc is { } t ? t.ToUniversalTime().ToString("O", CultureInfo.InvariantCulture) : DBNull.Value;
                budget.Value = r.Budget;
                kind.Value = r.Kind;
                measured.Value = r.Measured;
                limit.Value = r.Limit is { } l ? l : DBNull.Value;
                unit.Value = r.Unit;
                verdict.Value = r.Verdict;
                await result.ExecuteNonQueryAsync(cancellationToken);
            }

            return runId;
        }, cancellationToken);
    }

    public async Task<string?> RunResultsAsync(string project, string commit, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT r.results_json FROM runs r JOIN projects p ON p.id = r.project_id
            WHERE p.name = @project AND r.commit_sha = @commit
            ORDER BY r.id DESC LIMIT 1
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@commit", commit, DbType.String);
        return await command.ExecuteScalarAsync(cancellationToken) as string;
    }

    public async Task<string?> NearestAncestorWithRunAsync(string project, string commit, IReadOnlyList<string> knownParents, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(knownParents);
        await using var connection = await OpenAsync(cancellationToken);
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
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT x.budget, x.kind, x.unit, x.measured, x.limit_value, x.verdict, r.id, r.commit_sha, r.branch, r.uploaded_utc,
                   x.noise, x.noise_absolute
            FROM results x JOIN runs r ON r.id = x.run_id
            WHERE r.id = (SELECT MAX(l.id) FROM runs l JOIN projects p ON p.id = l.project_id WHERE p.name = @project AND l.branch = @branch)
            ORDER BY x.budget
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@branch", branch, DbType.String);
        var latest = new List<BudgetLatest>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            latest.Add(new BudgetLatest(reader.GetString(0), reader.GetString(1), reader.GetString(2), reader.GetDouble(3),
                reader.IsDBNull(4) ? null : reader.GetDouble(4), reader.GetString(5), reader.GetInt64(6), reader.GetString(7),
                reader.GetString(8), ParseTime(reader.GetString(9)))
            {
                Noise = reader.IsDBNull(10) ? null : reader.GetDouble(10),
                NoiseAbsolute = reader.IsDBNull(11) ? null : reader.GetDouble(11),
            });
        }

        return latest;
    }

    public async Task<IReadOnlyList<SeriesPoint>> GetSeriesAsync(string project, string budget, string? branch, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT r.id, r.commit_sha, r.branch, r.uploaded_utc, r.runtime, r.valgrind_version, x.kind, x.unit, x.measured, x.limit_value, x.verdict,
                   x.noise, x.noise_absolute, x.measured_utc
            FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id
            WHERE p.name = @project AND x.budget = @budget AND (@branch IS NULL OR r.branch = @branch)
            ORDER BY r.id
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@budget", budget, DbType.String);
        Add(command, "@branch", branch, DbType.String);
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
                RuntimeChanged: previous is not null && previous.Runtime != runtime)
            {
                Noise = reader.IsDBNull(11) ? null : reader.GetDouble(11),
                NoiseAbsolute = reader.IsDBNull(12) ? null : reader.GetDouble(12),
                MeasuredUtc = reader.IsDBNull(13) ? null : ParseTime(reader.GetString(13)),
            });
        }

        return series;
    }

    public async Task<IReadOnlyList<ProjectSummary>> ListProjectsAsync(CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT p.name, COUNT(r.id), MAX(r.uploaded_utc) FROM projects p LEFT JOIN runs r ON r.project_id = p.id
            GROUP BY p.name ORDER BY p.name
            """);
        var projects = new List<ProjectSummary>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            projects.Add(new ProjectSummary(reader.GetString(0), reader.GetInt64(1), reader.IsDBNull(2) ? null : ParseTime(reader.GetString(2))));
        }

        return projects;
    }

    public async Task<(long Runs, long Results)> CountAsync(string project, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT (SELECT COUNT(*) FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.name = @project),
                   (SELECT COUNT(*) FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id WHERE p.name = @project)
            """);
        Add(command, "@project", project, DbType.String);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        await reader.ReadAsync(cancellationToken);
        return (reader.GetInt64(0), reader.GetInt64(1));
    }

    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Adds parameter <paramref name="name"/> (<c>@name</c>) of <paramref name="type"/>; null is stored as SQL NULL.</summary>
    internal static DbParameter Add(DbCommand command, string name, object? value, DbType type)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = name;
        parameter.DbType = type;
        parameter.Value = value ?? DBNull.Value;
        command.Parameters.Add(parameter);
        return parameter;
    }

    /// <summary>An open connection to the database.</summary>
    protected abstract ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken);

    /// <summary>Begins the transaction a whole write happens in.</summary>
    protected abstract ValueTask<DbTransaction> BeginWriteAsync(DbConnection connection, CancellationToken cancellationToken);

    /// <summary>True when <paramref name="exception"/> is a unique constraint refusing a duplicate.</summary>
    protected abstract bool IsUniqueViolation(DbException exception);

    /// <summary>True when <paramref name="exception"/> lost a race with another writer and the whole write can be tried again.</summary>
    protected virtual bool IsTransient(DbException exception) => false;

    protected virtual void Dispose(bool disposing)
    {
        if (disposing)
        {
            _writeGate?.Dispose();
        }
    }

    // One transaction around the whole write: nothing is committed unless every row went in; an exception or a
    // cancelled request rolls back. A write that lost a race to a concurrent one is tried again whole.
    private async Task<T> WriteAsync<T>(Func<DbConnection, DbTransaction, Task<T>> write, CancellationToken cancellationToken)
    {
        if (_writeGate is not null)
        {
            await _writeGate.WaitAsync(cancellationToken);
        }

        try
        {
            for (var attempt = 1; ; attempt++)
            {
                try
                {
                    await using var connection = await OpenAsync(cancellationToken);
                    await using var transaction = await BeginWriteAsync(connection, cancellationToken);
                    var written = await write(connection, transaction);
                    await transaction.CommitAsync(cancellationToken);
                    return written;
                }
                catch (DbException e) when (attempt < WriteAttempts && IsTransient(e))
                {
                }
            }
        }
        finally
        {
            _writeGate?.Release();
        }
    }

    private static async Task<long> InsertRunAsync(DbConnection connection, DbTransaction transaction, string project, RunUpload run, CancellationToken cancellationToken)
    {
        await using var command = Command(connection, transaction, """
            INSERT INTO runs (project_id, commit_sha, branch, runtime, valgrind_version, machine, uploaded_utc, results_json)
            SELECT id, @commit, @branch, @runtime, @valgrind, @machine, @uploaded, @results FROM projects WHERE name = @project
            RETURNING id
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@commit", run.Commit, DbType.String);
        Add(command, "@branch", run.Branch, DbType.String);
        Add(command, "@runtime", run.Runtime, DbType.String);
        Add(command, "@valgrind", run.ValgrindVersion, DbType.String);
        Add(command, "@machine", run.Machine, DbType.String);
        Add(command, "@uploaded", Now(), DbType.String);
        Add(command, "@results", run.ResultsJson, DbType.String);
        return await command.ExecuteScalarAsync(cancellationToken) is long id
            ? id
            : throw new ServerInputException(404, $"There is no project '{project}'.");
    }

    private static async Task<bool> HasRunAsync(DbConnection connection, string project, string commit, CancellationToken cancellationToken)
    {
        await using var command = Command(connection, null,
            "SELECT 1 FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.name = @project AND r.commit_sha = @commit LIMIT 1");
        Add(command, "@project", project, DbType.String);
        Add(command, "@commit", commit, DbType.String);
        return await command.ExecuteScalarAsync(cancellationToken) is not null;
    }

    private static async Task<List<string>> StoredParentsAsync(DbConnection connection, string project, string commit, CancellationToken cancellationToken)
    {
        await using var command = Command(connection, null, """
            SELECT c.parent_sha FROM commit_parents c JOIN projects p ON p.id = c.project_id
            WHERE p.name = @project AND c.commit_sha = @commit ORDER BY c.ordinal
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@commit", commit, DbType.String);
        var parents = new List<string>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            parents.Add(reader.GetString(0));
        }

        return parents;
    }

    private static DbCommand Command(DbConnection connection, DbTransaction? transaction, string sql)
    {
        var command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        return command;
    }

    private static DateTimeOffset ParseTime(string stored) => DateTimeOffset.Parse(stored, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind);

    private static string Now() => DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture);
}
