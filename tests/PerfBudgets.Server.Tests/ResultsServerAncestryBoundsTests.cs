using System.Diagnostics;
using System.Net;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// A commit graph made to be expensive to walk (a thousand commits each naming sixteen of the others) is refused at
/// upload when it is a cycle, and when it is stored anyway (acyclic, or made cyclic across two uploads) a baseline miss
/// from it stays within its bounds: rows, time, and its request.
/// </summary>
public abstract class ResultsServerAncestryBoundsTests
{
    private const int Commits = 1_000;
    private const int ParentsEach = 16;

    // The walk of this graph with no bound took 16-18 s on either database; a walk a bound stopped answers in well
    // under a second on a quiet machine. Half the unbounded walk tells the two apart on a busy one too.
    private static readonly TimeSpan FarUnderAnUnboundedWalk = TimeSpan.FromSeconds(8);

    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private string Database => Postgres is null ? "SQLite" : "PostgreSQL";

    private Task<RunningResultsServer> StartAsync(Func<ResultsServerOptions, ResultsServerOptions>? configure = null) =>
        RunningResultsServer.StartAsync(postgres: Postgres, configure: configure);

    [Fact]
    public async Task An_upload_whose_ancestry_is_a_cycle_is_400_naming_a_commit_on_it_and_stores_nothing()
    {
        await using var server = await StartAsync();
        var cyclic = RunningResultsServer.UploadBody("head", ["g0"]);
        cyclic["ancestry"] = Dense(wrap: true);
        var selfParent = RunningResultsServer.UploadBody("s1", ["s1"]);

        using var answer = await server.UploadAsync(cyclic.ToJsonString());
        using var self = await server.UploadAsync(selfParent.ToJsonString());

        answer.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await ResultsServerUploadTests.ProblemDetail(answer)).Should().Contain("'ancestry' is not a history git makes").And.Contain("its own ancestor");
        self.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await ResultsServerUploadTests.ProblemDetail(self)).Should().Contain("commit s1 is its own ancestor");
        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Fact]
    public async Task A_miss_from_a_dense_graph_made_cyclic_across_two_uploads_stops_at_its_row_bound()
    {
        // The time limit is set far off, so that each miss names the bound that stopped it, however busy the machine.
        await using var server = await StartAsync(o => o with { AncestorSearchTimeout = TimeSpan.FromMinutes(1) });
        await StoreDenseCycleAsync(server);

        var took = new List<double>();
        for (var i = 0; i < 10; i++)
        {
            var watch = Stopwatch.StartNew();
            using var miss = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=g{i * 97}", TestContext.Current.CancellationToken);
            took.Add(watch.Elapsed.TotalMilliseconds);
            miss.StatusCode.Should().Be(HttpStatusCode.NotFound);
            (await ResultsServerUploadTests.ProblemDetail(miss)).Should().Contain("MaxAncestorRows", "the walk's work is bounded by its rows");
        }

        // The bounded work is asserted above; its time only against the unbounded walk, and printed as measured (the
        // first miss pays for the connection and the plan).
        TestContext.Current.TestOutputHelper?.WriteLine($"{Database}, dense cyclic graph, miss ms: {string.Join(", ", took.Select(t => t.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture)))}");
        took.Order().ElementAt(took.Count / 2).Should().BeLessThan(FarUnderAnUnboundedWalk.TotalMilliseconds, "a walk stopped at its row bound is not the whole walk");
    }

    [Fact]
    public async Task A_miss_stopped_by_its_time_limit_answers_at_it_and_says_so()
    {
        await using var server = await StartAsync(o => o with { MaxAncestorRows = int.MaxValue, AncestorSearchTimeout = TimeSpan.FromMilliseconds(200) });
        await StoreDenseCycleAsync(server);

        var watch = Stopwatch.StartNew();
        using var miss = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=g5", TestContext.Current.CancellationToken);
        var took = watch.Elapsed;

        TestContext.Current.TestOutputHelper?.WriteLine($"{Database}, time-limited miss: {took.TotalMilliseconds:0} ms");
        miss.StatusCode.Should().Be(HttpStatusCode.NotFound);
        (await ResultsServerUploadTests.ProblemDetail(miss)).Should().Contain("AncestorSearchTimeout");
        took.Should().BeLessThan(FarUnderAnUnboundedWalk, "the walk is stopped at 200 ms, not run to its end");
    }

    [Fact]
    public async Task A_walk_ends_with_its_request()
    {
        await using var server = await StartAsync();
        await StoreDenseCycleAsync(server);
        using var request = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        request.CancelAfter(TimeSpan.FromMilliseconds(200));

        // No row bound and a minute's time limit: only the request's end stops this walk.
        var watch = Stopwatch.StartNew();
        var walk = () => server.Server.Storage.NearestAncestorWithRunAsync(RunningResultsServer.Project, "g5", [],
            new PerfBudgets.Server.Storage.AncestorSearch(MaxDepth: 1_000, MaxRows: int.MaxValue, Timeout: TimeSpan.FromMinutes(1)), request.Token);

        await walk.Should().ThrowAsync<OperationCanceledException>();
        TestContext.Current.TestOutputHelper?.WriteLine($"{Database}, cancelled walk: {watch.Elapsed.TotalMilliseconds:0} ms");
        watch.Elapsed.Should().BeLessThan(FarUnderAnUnboundedWalk, "the statement is stopped, not run to its end");
    }

    [Fact]
    public async Task The_nearest_ancestor_is_still_found_through_a_merge_heavy_acyclic_graph()
    {
        await using var server = await StartAsync();
        (await server.UploadAsync(RunningResultsServer.UploadBody("base").ToJsonString())).EnsureSuccessStatusCode().Dispose();
        var later = RunningResultsServer.UploadBody("tip", ["g0"]);
        later["ancestry"] = Dense(wrap: false, oldestParent: "base");
        (await server.UploadAsync(later.ToJsonString())).EnsureSuccessStatusCode().Dispose();

        // g990's parents are g991 … g999, each of whose is "base" within a generation or two.
        using var miss = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=g990", TestContext.Current.CancellationToken);

        JsonNode.Parse(await miss.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!["nearestAncestor"]!.GetValue<string>().Should().Be("base");
    }

    // Two uploads, each acyclic (so each is taken), whose edges together make g0 … g999 each name the sixteen after
    // it, wrapping around: every commit is its own ancestor and each generation of the walk is all thousand commits.
    internal static async Task StoreDenseCycleAsync(RunningResultsServer server)
    {
        var all = Dense(wrap: true);
        var first = RunningResultsServer.UploadBody("u1");
        first["ancestry"] = new JsonArray(all.Take(Commits / 2).Select(e => e!.DeepClone()).ToArray());
        var second = RunningResultsServer.UploadBody("u2");
        second["ancestry"] = new JsonArray(all.Skip(Commits / 2).Select(e => e!.DeepClone()).ToArray());
        (await server.UploadAsync(first.ToJsonString())).EnsureSuccessStatusCode().Dispose();
        (await server.UploadAsync(second.ToJsonString())).EnsureSuccessStatusCode().Dispose();
    }

    // g0 … g999, each naming the sixteen commits after it as its parents: wrapping around (a cycle), or not (the last
    // ones name fewer, and the oldest names oldestParent where given).
    private static JsonArray Dense(bool wrap, string? oldestParent = null) =>
        new(Enumerable.Range(0, Commits).Select(i =>
        {
            var parents = Enumerable.Range(i + 1, ParentsEach).Where(p => wrap || p < Commits).Select(p => (JsonNode?)$"g{p % Commits}").ToList();
            if (parents.Count == 0 && oldestParent is not null)
            {
                parents.Add(oldestParent);
            }

            return (JsonNode?)new JsonObject { ["commit"] = $"g{i}", ["parents"] = new JsonArray(parents.ToArray()) };
        }).ToArray());
}

/// <summary>Ancestry bounds on SQLite.</summary>
public sealed class ResultsServerAncestryBoundsTestsOnSqlite : ResultsServerAncestryBoundsTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Ancestry bounds on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ResultsServerAncestryBoundsTestsOnPostgres(PostgresCluster cluster) : ResultsServerAncestryBoundsTests
{
    protected override PostgresCluster? Postgres => cluster;
}
