using System.Data.Common;
using Microsoft.Data.Sqlite;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// The results server's storage in one SQLite file: nothing to install. The schema is migrated when the storage is
/// opened (<see cref="SchemaMigrator"/>).
/// </summary>
/// <remarks>
/// SQLite has one writer at a time. Writes of this process queue on a semaphore instead of racing for the file's lock
/// (a lost race is SQLITE_BUSY, an upload refused for nothing), a write transaction takes the lock up front
/// (<c>BEGIN IMMEDIATE</c>) so another process's writer waits for it, and the journal is WAL so that readers never
/// wait for a writer.
/// </remarks>
internal sealed class SqliteResultsStorage : AdoResultsStorage
{
    // SQLITE_CONSTRAINT: a unique or primary key refused the row.
    private const int SqliteConstraint = 19;

    // SQLITE_INTERRUPT: sqlite3_interrupt stopped the statement.
    private const int SqliteInterrupt = 9;

    private readonly string _connectionString;

    /// <summary>Opens (creating if need be) the database file <paramref name="path"/> and migrates it to the latest schema.</summary>
    public SqliteResultsStorage(string path) : base(oneWriterAtATime: true)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        _connectionString = new SqliteConnectionStringBuilder
        {
            DataSource = Path.GetFullPath(path),
            Mode = SqliteOpenMode.ReadWriteCreate,
            ForeignKeys = true,
            DefaultTimeout = 30,
        }.ToString();
        using var connection = new SqliteConnection(_connectionString);
        connection.Open();
        using (var wal = connection.CreateCommand())
        {
            wal.CommandText = "PRAGMA journal_mode=WAL";
            wal.ExecuteNonQuery();
        }

        SchemaMigrator.Migrate(connection, StorageProvider.Sqlite);
    }

    protected override async ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new SqliteConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        return connection;
    }

    // BEGIN IMMEDIATE: the write lock is taken up front, so a second process's writer waits instead of failing.
    protected override ValueTask<DbTransaction> BeginWriteAsync(DbConnection connection, CancellationToken cancellationToken) =>
        ValueTask.FromResult<DbTransaction>(((SqliteConnection)connection).BeginTransaction(deferred: false));

    protected override bool IsUniqueViolation(DbException exception) => exception is SqliteException { SqliteErrorCode: SqliteConstraint };

    // ORDER BY the depth makes the walk's queue breadth first (rather than first in, first out) and LIMIT bounds the
    // rows ever added to it: SQLite's own limit of a recursive query, taken inside it.
    protected override string RecursiveRowLimit => "ORDER BY 3 LIMIT @maxRows";

    protected override string OuterRowLimit => "";

    // Microsoft.Data.Sqlite runs a statement to its end whatever the token says; sqlite3_interrupt, which may be called
    // from any thread, stops it at its next step. The registration is disposed before the connection goes back to the
    // pool, so no other statement is interrupted.
    protected override IDisposable? InterruptOnCancel(DbConnection connection, CancellationToken cancellationToken) =>
        cancellationToken.Register(static state => SQLitePCL.raw.sqlite3_interrupt(((SqliteConnection)state!).Handle), connection);

    protected override bool IsInterrupted(DbException exception) => exception is SqliteException { SqliteErrorCode: SqliteInterrupt };

    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing);
        // Pooled connections keep the file open; a test deletes it after disposing the storage.
        SqliteConnection.ClearAllPools();
    }
}
