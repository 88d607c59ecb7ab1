using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests.Storage;

/// <summary>Old runs deleted: beyond the newest N of each branch, or older than N days, never a branch's newest.</summary>
public abstract class RetentionTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Runs_beyond_the_newest_n_of_each_branch_are_deleted_with_their_results()
    {
        await using var server = await StartWithRunsAsync();

        var deleted = await server.Server.Storage.PruneAsync(null, 3, Cancellation);

        deleted.Should().Be(2);
        (await server.CountAsync()).Should().Be((5, (3 * 2) + (2 * 3)));
        (await server.Server.Storage.GetSeriesAsync(RunningResultsServer.Project, "Test.Budget0.BytesPerOp", "main", Cancellation))
            .Select(p => p.Commit).Should().Equal("a3", "a4", "a5");
        (await server.Server.Storage.RunResultsAsync(RunningResultsServer.Project, "a1", Cancellation)).Should().BeNull();
    }

    [Fact]
    public async Task Runs_older_than_the_cutoff_are_deleted_but_each_branchs_newest_stays()
    {
        await using var server = await StartWithRunsAsync();

        var deleted = await server.Server.Storage.PruneAsync(DateTimeOffset.UtcNow.AddMinutes(1), null, Cancellation);
        var none = await server.Server.Storage.PruneAsync(DateTimeOffset.UtcNow.AddMinutes(-1), null, Cancellation);

        deleted.Should().Be(5);
        none.Should().Be(0);
        (await server.CountAsync()).Runs.Should().Be(2);
        (await server.Server.Storage.GetLatestAsync(RunningResultsServer.Project, "feature", Cancellation)).Should().NotBeEmpty();
        (await server.Server.Storage.RunResultsAsync(RunningResultsServer.Project, "a5", Cancellation)).Should().NotBeNull();
    }

    [Fact]
    public async Task A_server_with_a_retention_setting_prunes_on_its_own()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres,
            configure: o => o with { RetainRunsPerBranch = 1, PruneInterval = TimeSpan.FromMilliseconds(100) });
        for (var i = 1; i <= 3; i++)
        {
            await ResultsServerReadApiTests.UploadAsync(server, $"a{i}", measured: 100 + i);
        }

        // The pruner runs every 100 ms; the wait ends as soon as it has, and the deadline only stops a server that never does.
        var deadline = DateTime.UtcNow.AddMinutes(1);
        while ((await server.CountAsync()).Runs > 1 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100, Cancellation);
        }

        (await server.CountAsync()).Runs.Should().Be(1);
        (await server.Server.Storage.RunResultsAsync(RunningResultsServer.Project, "a3", Cancellation)).Should().NotBeNull();
    }

    // Five runs on main (a1 … a5, two figures each) and two on feature (f1, f2, three figures each).
    private async Task<RunningResultsServer> StartWithRunsAsync()
    {
        var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        for (var i = 1; i <= 5; i++)
        {
            await ResultsServerReadApiTests.UploadAsync(server, $"a{i}", measured: 100 + i);
        }

        for (var i = 1; i <= 2; i++)
        {
            var body = RunningResultsServer.UploadBody($"f{i}");
            body["branch"] = "feature";
            (await server.UploadAsync(body.ToJsonString())).EnsureSuccessStatusCode().Dispose();
        }

        return server;
    }
}

/// <summary>Retention on SQLite.</summary>
public sealed class RetentionTestsOnSqlite : RetentionTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Retention on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class RetentionTestsOnPostgres(PostgresCluster cluster) : RetentionTests
{
    protected override PostgresCluster? Postgres => cluster;
}
