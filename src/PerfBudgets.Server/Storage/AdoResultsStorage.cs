using System.Data.Common;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// The storage calls in SQL both databases speak (parameters as <c>@name</c>, <c>ON CONFLICT DO NOTHING</c>,
/// <c>RETURNING</c>); <see cref="SqliteResultsStorage"/> and <see cref="PostgresResultsStorage"/> say how to connect,
/// how a write transaction begins and which errors mean what. Every statement is parameterised. One partial file a
/// concern: projects and tokens, storing a run, reads, series, the ancestor search, retention.
/// </summary>
internal abstract partial class AdoResultsStorage : IResultsStorage, IDisposable
{
    // A write that lost a deadlock or a serialization race to another upload is tried again, whole, this many times.
    private const int WriteAttempts = 3;

    // Null where the database orders concurrent writers itself (PostgreSQL); one at a time for SQLite.
    private readonly SemaphoreSlim? _writeGate;

    protected AdoResultsStorage(bool oneWriterAtATime) => _writeGate = oneWriterAtATime ? new SemaphoreSlim(1, 1) : null;

    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
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
}
