using System.Net;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// The bounds a shared server puts on one request (<see cref="ResultsServerOptions"/>): how many parents a baseline
/// query names, how far its ancestor search walks, and how many figures, parents and ancestry entries an upload holds.
/// </summary>
public abstract class ResultsServerLimitsTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private Task<RunningResultsServer> StartAsync(Func<ResultsServerOptions, ResultsServerOptions>? configure = null) =>
        RunningResultsServer.StartAsync(postgres: Postgres, configure: configure);

    [Fact]
    public async Task A_baseline_query_naming_more_parents_than_the_limit_is_400()
    {
        await using var server = await StartAsync(o => o with { MaxParentsPerCommit = 3 });
        var parents = string.Join(',', Enumerable.Range(0, 4).Select(i => $"p{i}"));

        using var answer = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=c1&parents={parents}",
            TestContext.Current.CancellationToken);

        answer.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await ResultsServerUploadTests.ProblemDetail(answer)).Should().Contain("4 commits").And.Contain("at most 3").And.Contain("MaxParentsPerCommit");
    }

    [Fact]
    public async Task An_upload_with_more_figures_than_the_limit_is_413_and_stores_nothing()
    {
        await using var server = await StartAsync(o => o with { MaxResultsPerUpload = 2 });

        using var answer = await server.UploadAsync(RunningResultsServer.UploadBody("a1", resultsJson: RunningResultsServer.ResultsJson(budgets: 3)).ToJsonString());

        answer.StatusCode.Should().Be(HttpStatusCode.RequestEntityTooLarge);
        (await ResultsServerUploadTests.ProblemDetail(answer)).Should().Contain("3 figures").And.Contain("MaxResultsPerUpload");
        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Fact]
    public async Task An_upload_with_more_ancestry_than_the_limit_is_413_and_stores_nothing()
    {
        await using var server = await StartAsync(o => o with { MaxAncestryPerUpload = 2 });
        var body = RunningResultsServer.UploadBody("d1", ["c1"]);
        body["ancestry"] = Chain("c", 3);

        using var answer = await server.UploadAsync(body.ToJsonString());

        answer.StatusCode.Should().Be(HttpStatusCode.RequestEntityTooLarge);
        (await ResultsServerUploadTests.ProblemDetail(answer)).Should().Contain("3 commits").And.Contain("MaxAncestryPerUpload");
        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Fact]
    public async Task An_upload_naming_more_parents_of_one_commit_than_the_limit_is_400()
    {
        await using var server = await StartAsync(o => o with { MaxParentsPerCommit = 2 });
        var tooMany = RunningResultsServer.UploadBody("m1", ["a", "b", "c"]);
        var ancestryTooMany = RunningResultsServer.UploadBody("m1", ["a"]);
        ancestryTooMany["ancestry"] = JsonNode.Parse("""[{ "commit": "a", "parents": ["x", "y", "z"] }]""");

        using var own = await server.UploadAsync(tooMany.ToJsonString());
        using var ancestry = await server.UploadAsync(ancestryTooMany.ToJsonString());

        own.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await ResultsServerUploadTests.ProblemDetail(own)).Should().Contain("'parents' names 3 parents");
        ancestry.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await ResultsServerUploadTests.ProblemDetail(ancestry)).Should().Contain("'ancestry[0].parents' names 3 parents");
        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Theory]
    [InlineData(10, "c0")] // c10's tenth generation back, c0, has the run
    [InlineData(9, null)] // one generation short of it
    public async Task The_ancestor_search_walks_at_most_the_depth_limit(int maxDepth, string? expected)
    {
        await using var server = await StartAsync(o => o with { MaxAncestorDepth = maxDepth });
        (await server.UploadAsync(RunningResultsServer.UploadBody("c0").ToJsonString())).EnsureSuccessStatusCode().Dispose();
        var later = RunningResultsServer.UploadBody("c11", ["c10"]);
        later["ancestry"] = Chain("c", 10); // c10 → c9 → … → c1 → c0
        (await server.UploadAsync(later.ToJsonString())).EnsureSuccessStatusCode().Dispose();

        using var miss = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=c10", TestContext.Current.CancellationToken);

        miss.StatusCode.Should().Be(HttpStatusCode.NotFound);
        JsonNode.Parse(await miss.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!["nearestAncestor"]?.GetValue<string>()
            .Should().Be(expected);
    }

    [Fact]
    public async Task Rows_over_several_insert_batches_are_all_stored()
    {
        // 250 figures and 250 ancestry edges: two full statements of rows and a part one each.
        await using var server = await StartAsync();
        (await server.UploadAsync(RunningResultsServer.UploadBody("c0").ToJsonString())).EnsureSuccessStatusCode().Dispose();
        var later = RunningResultsServer.UploadBody("c251", ["c250"], RunningResultsServer.ResultsJson(budgets: 250));
        later["ancestry"] = Chain("c", 250);

        using var answer = await server.UploadAsync(later.ToJsonString());
        using var miss = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=c250", TestContext.Current.CancellationToken);

        answer.StatusCode.Should().Be(HttpStatusCode.Created);
        (await server.CountAsync()).Should().Be((2, 253));
        JsonNode.Parse(await miss.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!["nearestAncestor"]!.GetValue<string>().Should().Be("c0");
    }

    // {prefix}{n} → {prefix}{n-1} → … → {prefix}0, newest first, as git rev-list --parents lists it.
    private static JsonArray Chain(string prefix, int newest) =>
        new(Enumerable.Range(1, newest).Reverse()
            .Select(i => (JsonNode?)new JsonObject { ["commit"] = $"{prefix}{i}", ["parents"] = new JsonArray($"{prefix}{i - 1}") })
            .ToArray());
}

/// <summary>Limits on SQLite.</summary>
public sealed class ResultsServerLimitsTestsOnSqlite : ResultsServerLimitsTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Limits on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ResultsServerLimitsTestsOnPostgres(PostgresCluster cluster) : ResultsServerLimitsTests
{
    protected override PostgresCluster? Postgres => cluster;
}
