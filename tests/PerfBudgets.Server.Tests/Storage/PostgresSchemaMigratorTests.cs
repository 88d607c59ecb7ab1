using Npgsql;
using PerfBudgets.Server.Storage;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests.Storage;

/// <summary>The same numbered migrations on PostgreSQL: forward from an older version, and two servers starting at once.</summary>
[Collection(PostgresCollection.Name)]
public sealed class PostgresSchemaMigratorTests(PostgresCluster cluster)
{
    // Version 3 creates the commit graph and seeds it from the parents stored with each run.
    private const int BeforeCommitGraph = 2;

    [Fact]
    public async Task A_database_from_before_the_commit_graph_is_migrated_forward_on_start_seeding_it_and_keeping_its_rows()
    {
        var connectionString = await cluster.NewDatabaseAsync();
        await using (var connection = new NpgsqlConnection(connectionString))
        {
            await connection.OpenAsync(TestContext.Current.CancellationToken);
            SchemaMigrator.Migrate(connection, StorageProvider.Postgres, targetVersion: BeforeCommitGraph).Should().Be(BeforeCommitGraph);
            await using var insert = new NpgsqlCommand("""
                INSERT INTO projects (id, name, token_sha256, created_utc) VALUES (1, 'old', '\x00', '2026-01-01');
                INSERT INTO runs (id, project_id, commit_sha, branch, runtime, machine, uploaded_utc, results_json)
                    VALUES (1, 1, 'b1', 'main', '.NET 10', 'm', '2026-01-01', '{"results":[]}');
                INSERT INTO run_parents (run_id, ordinal, parent_sha) VALUES (1, 0, 'a1');
                """, connection);
            await insert.ExecuteNonQueryAsync(TestContext.Current.CancellationToken);
        }

        using (var storage = new PostgresResultsStorage(connectionString))
        {
            (await storage.TokenHashAsync("old", TestContext.Current.CancellationToken)).Should().Equal(0);
            (await storage.ReadTokenHashAsync("old", TestContext.Current.CancellationToken)).Should().BeNull();
            (await storage.NearestAncestorWithRunAsync("old", "c1", ["b1"], AncestorSearch.From(new ResultsServerOptions()), TestContext.Current.CancellationToken)).Commit.Should().Be("b1");
        }

        await using var reopened = new NpgsqlConnection(connectionString);
        await reopened.OpenAsync(TestContext.Current.CancellationToken);
        SchemaMigrator.CurrentVersion(reopened).Should().Be(SchemaMigrator.LatestVersion);
        await using var seeded = new NpgsqlCommand("SELECT COUNT(*) FROM commit_parents WHERE commit_sha = 'b1' AND parent_sha = 'a1'", reopened);
        (await seeded.ExecuteScalarAsync(TestContext.Current.CancellationToken)).Should().Be(1L);
    }

    [Fact]
    public async Task Two_servers_starting_on_a_new_database_at_once_apply_each_migration_once()
    {
        var connectionString = await cluster.NewDatabaseAsync();

        var storages = await Task.WhenAll(Enumerable.Range(0, 2).Select(_ => Task.Run(() => new PostgresResultsStorage(connectionString))));

        foreach (var storage in storages)
        {
            storage.Dispose();
        }

        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(TestContext.Current.CancellationToken);
        await using var count = new NpgsqlCommand("SELECT COUNT(*) FROM schema_version", connection);
        (await count.ExecuteScalarAsync(TestContext.Current.CancellationToken)).Should().Be((long)SchemaMigrator.LatestVersion);
    }
}
