using System.Data.Common;
using Npgsql;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// The results server's storage in a PostgreSQL database (Npgsql), for a team's server: the same tables, migrated on
/// start from <c>Migrations/</c> and <c>Migrations/Postgres</c>.
/// </summary>
/// <remarks>
/// PostgreSQL orders concurrent writers itself, so uploads are not queued in process: each is one transaction at
/// READ COMMITTED, and two uploads naming the same commit-graph edge meet on its primary key
/// (<c>ON CONFLICT DO NOTHING</c>). One that loses a deadlock or serialization race is retried whole.
/// </remarks>
internal sealed class PostgresResultsStorage : AdoResultsStorage
{
    private readonly NpgsqlDataSource _dataSource;

    /// <summary>Connects with <paramref name="connectionString"/> (<c>Host=…;Database=…;Username=…</c>) and migrates the database to the latest schema.</summary>
    public PostgresResultsStorage(string connectionString) : base(oneWriterAtATime: false)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(connectionString);
        _dataSource = NpgsqlDataSource.Create(connectionString);
        using var connection = _dataSource.OpenConnection();
        SchemaMigrator.Migrate(connection, StorageProvider.Postgres);
    }

    protected override async ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken) =>
        await _dataSource.OpenConnectionAsync(cancellationToken);

    protected override async ValueTask<DbTransaction> BeginWriteAsync(DbConnection connection, CancellationToken cancellationToken) =>
        await connection.BeginTransactionAsync(cancellationToken);

    protected override bool IsUniqueViolation(DbException exception) =>
        exception is PostgresException { SqlState: PostgresErrorCodes.UniqueViolation };

    protected override string RecursiveRowLimit => "";

    // PostgreSQL refuses a LIMIT inside a recursive query but computes its rows only as its reader asks for them.
    protected override string OuterRowLimit => "LIMIT @maxRows";

    protected override bool IsTransient(DbException exception) =>
        exception is PostgresException { SqlState: PostgresErrorCodes.DeadlockDetected or PostgresErrorCodes.SerializationFailure };

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _dataSource.Dispose();
        }

        base.Dispose(disposing);
    }
}
