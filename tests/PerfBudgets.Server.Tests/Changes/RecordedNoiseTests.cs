using System.Data.Common;
using System.Net;
using System.Text.Json.Nodes;
using Microsoft.Data.Sqlite;
using Npgsql;
using PerfBudgets.Server.Storage;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests.Changes;

/// <summary>
/// The noise threshold and the time each results.json entry carries: stored per run, the latest run's noise as each
/// timed budget's smallest change point on a server without <c>--budgets</c> (which stays the override), the time on
/// the budget page, and runs stored before the columns existed read from their kept results.json by the migration.
/// </summary>
public abstract class RecordedNoiseTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    [Fact]
    public async Task Without_budgets_json_the_noise_the_runs_recorded_sets_the_step_and_runs_without_it_still_count()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        // The first five runs come from a gate that did not record its noise; the rest record 10%, as budgets.json says.
        await UploadSeriesAsync(server, count: 20, stepAt: 10, noise: i => i < 5 ? null : 0.1);

        var answer = await ResultsServerChangesTests.GetAsync(server, "changes");

        var change = answer["changes"]!.AsArray().Should().ContainSingle("the kind's default alone (a fivefold step) holds +16.7% noise").Subject!;
        change["commit"]!.GetValue<string>().Should().Be("c10");
        change["minShift"]!.GetValue<double>().Should().Be(0.1);
        change["minShiftSource"]!.GetValue<string>().Should().Be("run");
        var page = await server.Http.GetStringAsync($"projects/{RunningResultsServer.Project}/budgets/{TimedRuns.P99}", TestContext.Current.CancellationToken);
        page.Should().Contain("<li class=\"change-point\"><code title=\"c10\">c10</code>", "the dashboard takes the same step");
    }

    [Fact]
    public async Task The_servers_budgets_json_overrides_what_the_runs_recorded_and_a_recorded_absolute_floor_holds_a_smaller_step()
    {
        await using var overridden = await RunningResultsServer.StartAsync(postgres: Postgres, budgetsJson: TimedRuns.BudgetsJson);
        await UploadSeriesAsync(overridden, count: 20, stepAt: 10, noise: _ => 0.5);
        await using var floored = await RunningResultsServer.StartAsync(postgres: Postgres);
        await UploadSeriesAsync(floored, count: 20, stepAt: 10, noise: _ => 0.1, noiseAbsolute: 3);

        var change = (await ResultsServerChangesTests.GetAsync(overridden, "changes"))["changes"]!.AsArray().Should().ContainSingle().Subject!;
        var none = await ResultsServerChangesTests.GetAsync(floored, "changes");

        change["minShift"]!.GetValue<double>().Should().Be(0.1, "the server's budgets.json gives the budget 10%, over the runs' 50%");
        change["minShiftSource"]!.GetValue<string>().Should().Be("budget");
        none["changes"]!.AsArray().Should().BeEmpty("12 → 14 ms is within the recorded floor of 3 ms");
    }

    [Fact]
    public async Task Each_figure_keeps_its_noise_and_its_measured_time_and_the_budget_page_shows_the_runs_time()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        await UploadSeriesAsync(server, count: 2, stepAt: null, noise: i => i == 0 ? null : 0.1, noiseAbsolute: 0.5);

        var series = await server.Server.Storage.GetSeriesAsync(RunningResultsServer.Project, TimedRuns.P99, "main", TestContext.Current.CancellationToken);
        var page = await server.Http.GetStringAsync($"projects/{RunningResultsServer.Project}/budgets/{TimedRuns.P99}", TestContext.Current.CancellationToken);

        series.Select(p => (p.Noise, p.NoiseAbsolute)).Should().Equal((null, null), (0.1, 0.5));
        series.Should().OnlyContain(p => p.MeasuredUtc == new DateTimeOffset(2026, 11, 24, 20, 0, 0, TimeSpan.Zero));
        page.Should().Contain("<th class=\"time\">measured (UTC)</th>").And.Contain("<td class=\"time\">2026-11-24 20:00</td>");
        page.Should().NotContain("uploaded (UTC)");
    }

    [Fact]
    public async Task Runs_stored_before_the_noise_and_time_columns_get_them_from_their_kept_results_json()
    {
        var entry = RunningResultsServer.Result(TimedRuns.P99, "p99-ms-max", 12, 50, "ms");
        entry["noise"] = 0.4;
        entry["noiseAbsolute"] = 0;
        var results = new JsonObject { ["results"] = new JsonArray(entry, RunningResultsServer.Result(TimedRuns.Bytes, "allocated-bytes-per-op", 100, 200, "B/op")) };
        await using var database = await OldDatabase.CreateAsync(Postgres);
        await using (var connection = await database.OpenAsync())
        {
            SchemaMigrator.Migrate(connection, database.Provider, targetVersion: 4).Should().Be(4);
            await using var insert = connection.CreateCommand();
            insert.CommandText = """
                INSERT INTO projects (id, name, token_sha256, created_utc) VALUES (1, 'old', @hash, '2026-01-01');
                INSERT INTO runs (id, project_id, commit_sha, branch, runtime, machine, uploaded_utc, results_json)
                    VALUES (1, 1, 'b1', 'main', '.NET 10', 'm', '2026-11-25T01:00:00.0000000+00:00', @results);
                INSERT INTO results (run_id, budget, kind, measured, limit_value, unit, verdict)
                    VALUES (1, 'Load.Api.P99Ms', 'p99-ms-max', 12, 50, 'ms', 'pass'), (1, 'Alloc.Json.BytesPerOp', 'allocated-bytes-per-op', 100, 200, 'B/op', 'pass');
                """;
            DbCommands.Add(insert, "@hash", new byte[] { 0 }, System.Data.DbType.Binary);
            DbCommands.Add(insert, "@results", results.ToJsonString(), System.Data.DbType.String);
            await insert.ExecuteNonQueryAsync(TestContext.Current.CancellationToken);
        }

        using var storage = database.OpenStorage();
        var p99 = (await storage.GetSeriesAsync("old", TimedRuns.P99, "main", TestContext.Current.CancellationToken)).Single();
        var bytes = (await storage.GetLatestAsync("old", "main", TestContext.Current.CancellationToken)).Single(b => b.Budget == TimedRuns.Bytes);

        (p99.Noise, p99.NoiseAbsolute).Should().Be((0.4, 0.0));
        p99.MeasuredUtc.Should().Be(new DateTimeOffset(2026, 11, 24, 20, 0, 0, TimeSpan.Zero));
        (bytes.Noise, bytes.NoiseAbsolute).Should().Be((null, null), "that entry recorded none");
        SchemaMigrator.LatestVersion.Should().BeGreaterThanOrEqualTo(5, "migration 5 read these columns");
    }

    /// <summary>Uploads <paramref name="count"/> runs as <see cref="TimedRuns.UploadSeriesAsync"/>, the p99's entry with the noise given for run i.</summary>
    private static async Task UploadSeriesAsync(RunningResultsServer server, int count, int? stepAt, Func<int, double?> noise, double? noiseAbsolute = null)
    {
        for (var i = 0; i < count; i++)
        {
            var results = JsonNode.Parse(TimedRuns.ResultsJson(TimedRuns.P99Of(i, stepAt), p99Limit: 50, instructions: 1_000_000, bytes: 100))!;
            if (noise(i) is { } relative)
            {
                var p99 = results["results"]!.AsArray().Single(r => r!["budget"]!.GetValue<string>() == TimedRuns.P99)!;
                p99["noise"] = relative;
                p99["noiseAbsolute"] = noiseAbsolute ?? 0;
            }

            var body = RunningResultsServer.UploadBody(TimedRuns.Commit(i), i == 0 ? [] : [TimedRuns.Commit(i - 1)], results.ToJsonString());
            using var response = await server.UploadAsync(body.ToJsonString());
            response.StatusCode.Should().Be(HttpStatusCode.Created, await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken));
        }
    }

    /// <summary>A database of either kind that a test migrates by hand before the storage opens it.</summary>
    private sealed class OldDatabase : IAsyncDisposable
    {
        private readonly string? _folder;
        private readonly string _connectionString;

        private OldDatabase(StorageProvider provider, string connectionString, string? folder)
        {
            Provider = provider;
            _connectionString = connectionString;
            _folder = folder;
        }

        public StorageProvider Provider { get; }

        public static async Task<OldDatabase> CreateAsync(PostgresCluster? postgres)
        {
            if (postgres is not null)
            {
                return new OldDatabase(StorageProvider.Postgres, await postgres.NewDatabaseAsync(), null);
            }

            var folder = Directory.CreateTempSubdirectory("perfbudgets-old-").FullName;
            return new OldDatabase(StorageProvider.Sqlite, Path.Combine(folder, "results.db"), folder);
        }

        public async Task<DbConnection> OpenAsync()
        {
            DbConnection connection = Provider == StorageProvider.Postgres
                ? new NpgsqlConnection(_connectionString)
                : new SqliteConnection($"Data Source={_connectionString}");
            await connection.OpenAsync(TestContext.Current.CancellationToken);
            return connection;
        }

        public AdoResultsStorage OpenStorage() => Provider == StorageProvider.Postgres
            ? new PostgresResultsStorage(_connectionString)
            : new SqliteResultsStorage(_connectionString);

        public ValueTask DisposeAsync()
        {
            if (_folder is not null)
            {
                SqliteConnection.ClearAllPools();
                Directory.Delete(_folder, recursive: true);
            }

            return ValueTask.CompletedTask;
        }
    }
}

/// <summary>The recorded noise and time on SQLite.</summary>
public sealed class RecordedNoiseTestsOnSqlite : RecordedNoiseTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>The recorded noise and time on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class RecordedNoiseTestsOnPostgres(PostgresCluster cluster) : RecordedNoiseTests
{
    protected override PostgresCluster? Postgres => cluster;
}
