using Microsoft.Data.Sqlite;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Tests.Storage;

/// <summary>
/// Two servers (or a server and <c>serve --add-project</c>) starting at once on one new SQLite file: each migration is
/// applied once, by whichever takes the write lock first, and neither start fails.
/// </summary>
public sealed class ConcurrentSqliteMigrationTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-migrate-race-").FullName;

    private string DatabasePath => Path.Combine(_folder, "results.db");

    [Fact]
    public async Task Two_storages_starting_on_one_new_file_at_once_both_start_and_each_migration_is_recorded_once()
    {
        // The race made certain: a file with an empty schema_version whose write lock a third connection holds while
        // both storages start, so both have read the version (0) before either may write; then the lock is let go.
        using (var setup = Open())
        {
            Execute(setup, "PRAGMA journal_mode=WAL; CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_utc TEXT NOT NULL)");
        }

        var starts = new List<Task>();
        using (var blocker = Open())
        using (var writeLock = blocker.BeginTransaction(deferred: false))
        {
            starts.Add(Task.Run(() => new SqliteResultsStorage(DatabasePath).Dispose(), TestContext.Current.CancellationToken));
            starts.Add(Task.Run(() => new SqliteResultsStorage(DatabasePath).Dispose(), TestContext.Current.CancellationToken));
            // Both are now waiting for the write lock (SQLITE_BUSY, retried for up to 30 s).
            await Task.Delay(TimeSpan.FromMilliseconds(500), TestContext.Current.CancellationToken);
            writeLock.Rollback();
        }

        await Task.WhenAll(starts);

        using var connection = Open();
        using var versions = connection.CreateCommand();
        versions.CommandText = "SELECT COUNT(*), COUNT(DISTINCT version) FROM schema_version";
        using var reader = versions.ExecuteReader();
        reader.Read();
        (reader.GetInt64(0), reader.GetInt64(1)).Should().Be((SchemaMigrator.LatestVersion, SchemaMigrator.LatestVersion));
    }

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
    }

    private SqliteConnection Open()
    {
        var connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = DatabasePath, Pooling = false }.ToString());
        connection.Open();
        return connection;
    }

    private static void Execute(SqliteConnection connection, string sql)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }
}
