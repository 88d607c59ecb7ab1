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
internal abstract partial class AdoResultsStorage : IResultsStorage, IDisposable
{
    // The columns a series point is read from (ReadSeriesAsync), in its order.
    private const string SeriesColumns = """
        r.id, r.commit_sha, r.branch, r.uploaded_utc, r.runtime, r.valgrind_version, x.kind, x.unit, x.measured, x.limit_value, x.verdict,
               x.noise, x.noise_absolute, x.measured_utc
        """;

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

    public Task SetWriteTokenAsync(string name, byte[] tokenSha256, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(tokenSha256);
        return SetTokenAsync("UPDATE projects SET token_sha256 = @hash WHERE name = @name", name, tokenSha256, cancellationToken);
    }

    public Task SetReadTokenAsync(string name, byte[]? tokenSha256, CancellationToken cancellationToken) =>
        SetTokenAsync("UPDATE projects SET read_token_sha256 = @hash WHERE name = @name", name, tokenSha256, cancellationToken);

    // The statements are the two constants above, never built from input.
    private async Task SetTokenAsync(string update, string name, byte[]? tokenSha256, CancellationToken cancellationToken)
    {
        var updated = await WriteAsync(async (connection, transaction) =>
        {
            await using var command = Command(connection, transaction, update);
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
                    r.MeasuredUtc?.ToUniversalTime().ToString("O", CultureInfo.InvariantCulture),
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
            latest.Add(new BudgetLatest(reader.GetString(0), reader.GetString(1), reader.GetString(2), reader.IsDBNull(3) ? null : reader.GetDouble(3),
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
        await using var command = Command(connection, null, $"""
            SELECT {SeriesColumns}
            FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id
            WHERE p.name = @project AND x.budget = @budget AND (@branch IS NULL OR r.branch = @branch)
            ORDER BY r.id
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@budget", budget, DbType.String);
        Add(command, "@branch", branch, DbType.String);
        return await ReadSeriesAsync(command, cancellationToken);
    }

    public async Task<SeriesPage> GetSeriesPageAsync(string project, string budget, string branch, int count, long? beforeRunId,
        CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        await using var connection = await OpenAsync(cancellationToken);
        // One run more than the page, the one before it, so that the page's first point knows whether the limit or the
        // runtime changed there; it is read and dropped.
        await using var command = Command(connection, null, $"""
            SELECT * FROM (
                SELECT {SeriesColumns}
                FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id
                WHERE p.name = @project AND x.budget = @budget AND r.branch = @branch AND (@before IS NULL OR r.id < @before)
                ORDER BY r.id DESC
                LIMIT @count
            ) page ORDER BY 1
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@budget", budget, DbType.String);
        Add(command, "@branch", branch, DbType.String);
        Add(command, "@before", beforeRunId, DbType.Int64);
        Add(command, "@count", count + 1, DbType.Int32);
        var page = await ReadSeriesAsync(command, cancellationToken);
        return page.Count > count ? new SeriesPage(page.Skip(1).ToList(), HasOlder: true) : new SeriesPage(page, HasOlder: false);
    }

    public async Task<(long NewestRunId, long Runs)> RunsVersionAsync(string project, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT COALESCE(MAX(r.id), 0), COUNT(r.id) FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.name = @project
            """);
        Add(command, "@project", project, DbType.String);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        await reader.ReadAsync(cancellationToken);
        return (reader.GetInt64(0), reader.GetInt64(1));
    }

    private static async Task<List<SeriesPoint>> ReadSeriesAsync(DbCommand command, CancellationToken cancellationToken)
    {
        var series = new List<SeriesPoint>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            double? limit = reader.IsDBNull(9) ? null : reader.GetDouble(9);
            var runtime = reader.GetString(4);
            var previous = series.Count > 0 ? series[^1] : null;
            series.Add(new SeriesPoint(reader.GetInt64(0), reader.GetString(1), reader.GetString(2), ParseTime(reader.GetString(3)), runtime,
                reader.IsDBNull(5) ? null : reader.GetString(5), reader.GetString(6), reader.GetString(7), reader.IsDBNull(8) ? null : reader.GetDouble(8), limit,
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
        Add(command, "@uploaded", Now(), DbType.String);
        Add(command, "@results", run.ResultsJson, DbType.String);
        Add(command, "@key", run.IdempotencyKey, DbType.String);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        return await reader.ReadAsync(cancellationToken)
            ? (reader.GetInt64(0), reader.GetInt64(1))
            : run.WriteTokenSha256 is null
                ? throw new ServerInputException(404, $"There is no project '{project}'.")
                : throw new ServerInputException(403, $"Project '{project}''s write token was revoked or replaced while the upload arrived; nothing was stored.");
    }

    internal static DbCommand Command(DbConnection connection, DbTransaction? transaction, string sql)
    {
        var command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        return command;
    }

    // A figure the gate could not measure (NaN) or that overflowed is stored as NULL, not measured: SQLite stores NaN as
    // NULL anyway (and refused it in a NOT NULL column: 500), PostgreSQL keeps it, and no JSON number holds either.
    private static double? Finite(double figure) => double.IsFinite(figure) ? figure : null;

    private static DateTimeOffset ParseTime(string stored) => DateTimeOffset.Parse(stored, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind);

    private static string Now() => DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture);
}
