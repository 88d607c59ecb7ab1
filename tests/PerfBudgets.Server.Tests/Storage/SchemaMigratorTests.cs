using Microsoft.Data.Sqlite;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Tests.Storage;

public sealed class SchemaMigratorTests : IDisposable
{
    // Version 3 creates the commit graph and seeds it from the parents stored with each run.
    private const int BeforeCommitGraph = 2;

    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-schema-").FullName;

    private string DatabasePath => Path.Combine(_folder, "results.db");

    [Fact]
    public async Task A_database_from_before_the_commit_graph_is_migrated_forward_on_start_seeding_it_and_keeping_its_rows()
    {
        SchemaMigrator.LatestVersion.Should().BeGreaterThan(BeforeCommitGraph);
        using (var connection = Open())
        {
            SchemaMigrator.Migrate(connection, StorageProvider.Sqlite, targetVersion: BeforeCommitGraph).Should().Be(BeforeCommitGraph);
            using var insert = connection.CreateCommand();
            insert.CommandText = """
                INSERT INTO projects (id, name, token_sha256, created_utc) VALUES (1, 'old', x'00', '2026-01-01');
                INSERT INTO runs (id, project_id, commit_sha, branch, runtime, machine, uploaded_utc, results_json)
                    VALUES (1, 1, 'b1', 'main', '.NET 10', 'm', '2026-01-01', '{"results":[]}');
                INSERT INTO run_parents (run_id, ordinal, parent_sha) VALUES (1, 0, 'a1');
                """;
            insert.ExecuteNonQuery();
        }

        using (var storage = new SqliteResultsStorage(DatabasePath))
        {
            (await storage.TokenHashAsync("old", TestContext.Current.CancellationToken)).Should().Equal(0);
            (await storage.ReadTokenHashAsync("old", TestContext.Current.CancellationToken)).Should().BeNull();
            // The newest migration seeds the commit graph from the parents stored with each run.
            (await storage.NearestAncestorWithRunAsync("old", "c1", ["b1"], AncestorSearch.From(new ResultsServerOptions()), TestContext.Current.CancellationToken)).Commit.Should().Be("b1");
        }

        using var reopened = Open();
        SchemaMigrator.CurrentVersion(reopened).Should().Be(SchemaMigrator.LatestVersion);
        Scalar(reopened, "SELECT COUNT(*) FROM commit_parents WHERE commit_sha = 'b1' AND parent_sha = 'a1'").Should().Be(1);
    }

    [Fact]
    public void A_database_already_at_the_latest_version_is_left_alone()
    {
        using (new SqliteResultsStorage(DatabasePath))
        {
        }

        using var connection = Open();
        var recorded = Rows(connection);

        SchemaMigrator.Migrate(connection, StorageProvider.Sqlite).Should().Be(0);

        Rows(connection).Should().Equal(recorded);
        recorded.Should().HaveCount(SchemaMigrator.LatestVersion);
    }

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
    }

    private SqliteConnection Open()
    {
        var connection = new SqliteConnection($"Data Source={DatabasePath}");
        connection.Open();
        return connection;
    }

    private static long Scalar(SqliteConnection connection, string sql)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        return (long)command.ExecuteScalar()!;
    }

    private static List<string> Rows(SqliteConnection connection)
    {
        using var command = connection.CreateCommand();
        command.CommandText = "SELECT version || ' ' || applied_utc FROM schema_version ORDER BY version";
        using var reader = command.ExecuteReader();
        var rows = new List<string>();
        while (reader.Read())
        {
            rows.Add(reader.GetString(0));
        }

        return rows;
    }
}
