using System.Net;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// What the gate itself writes uploads and reads back: a budget it could not measure (<c>"measured": "NaN"</c>), a
/// figure that is not finite, an absent one; and a name a database cannot hold (a NUL, a lone surrogate, too long) is
/// a 400 naming its field, never a 500, on upload or on read.
/// </summary>
public abstract class ResultsServerFiguresAndNamesTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    [Theory]
    [InlineData("NaN", "not-measured")] // the gate's own "could not be measured"
    [InlineData("Infinity", "fail")]
    [InlineData("-Infinity", "pass")]
    [InlineData(null, "not-measured")] // absent
    [InlineData("null", "not-measured")] // "measured": null
    public async Task A_figure_that_is_not_finite_is_stored_as_not_measured_and_every_read_answers(string? measured, string verdict)
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var results = JsonNode.Parse(RunningResultsServer.ResultsJson(budgets: 2))!;
        var entry = results["results"]![0]!.AsObject();
        entry["verdict"] = verdict;
        entry["detail"] = "valgrind not found: apt-get install valgrind";
        if (measured is null)
        {
            entry.Remove("measured");
        }
        else if (measured == "null")
        {
            entry["measured"] = null;
        }
        else
        {
            entry["measured"] = measured;
        }

        using var upload = await server.UploadAsync(RunningResultsServer.UploadBody("a1", resultsJson: results.ToJsonString()).ToJsonString());
        upload.StatusCode.Should().Be(HttpStatusCode.Created, await upload.Content.ReadAsStringAsync(TestContext.Current.CancellationToken));

        var api = $"api/projects/{RunningResultsServer.Project}";
        var budgets = JsonNode.Parse(await server.Http.GetStringAsync($"{api}/budgets", TestContext.Current.CancellationToken))!.AsArray();
        var series = JsonNode.Parse(await server.Http.GetStringAsync($"{api}/budgets/Test.Budget0.BytesPerOp/series", TestContext.Current.CancellationToken))!.AsArray();
        var page = await server.Http.GetStringAsync($"projects/{RunningResultsServer.Project}", TestContext.Current.CancellationToken);
        var budgetPage = await server.Http.GetStringAsync($"projects/{RunningResultsServer.Project}/budgets/Test.Budget0.BytesPerOp", TestContext.Current.CancellationToken);
        using var baseline = await server.Http.GetAsync($"{api}/runs?commit=a1", TestContext.Current.CancellationToken);
        using var changes = await server.Http.GetAsync($"{api}/changes", TestContext.Current.CancellationToken);

        budgets[0]!["measured"].Should().BeNull();
        budgets[1]!["measured"]!.GetValue<double>().Should().Be(121);
        series.Should().ContainSingle().Which!["measured"].Should().BeNull();
        page.Should().Contain("not measured");
        budgetPage.Should().Contain("not measured").And.NotContain("NaN");
        baseline.StatusCode.Should().Be(HttpStatusCode.OK);
        changes.StatusCode.Should().Be(HttpStatusCode.OK);
        if (measured == "null")
        {
            // Served back as the gate writes a budget it could not measure, which PERF_BASELINE reads.
            var served = PerfBudgets.Reporting.Storage.ResultStore.Parse(await baseline.Content.ReadAsStringAsync(TestContext.Current.CancellationToken));
            double.IsNaN(served[0].Measured).Should().BeTrue();
        }
    }

    private static (string What, Action<JsonObject> Break, string Field)[] BadNames =>
    [
        ("a lone surrogate in a budget's name", b => b["results"]!["results"]![0]!["budget"] = "Budget.LONE.Name", "'results[0].budget' holds a lone UTF-16 surrogate"),
        ("a NUL in the branch", b => b["branch"] = "ma\0in", "'branch' holds a NUL character"),
        ("a NUL in a unit", b => b["results"]!["results"]![0]!["unit"] = "B\0", "'results[0].unit' holds a NUL character"),
        ("a line break in the commit", b => b["commit"] = "a1\n# heading", "'commit' holds a control character"),
        ("a commit of 101 characters", b => b["commit"] = new string('c', 101), "'commit' is 101 characters long; this server takes at most 100"),
        ("a branch of 256 characters", b => b["branch"] = new string('b', 256), "'branch' is 256 characters long"),
        ("a parent of 101 characters", b => b["parents"] = new JsonArray(new string('p', 101)), "'parents' is 101 characters long"),
        ("a lone surrogate in the machine", b => b["machine"] = "LONE", "'machine' holds a lone UTF-16 surrogate"),
    ];

    [Fact]
    public async Task A_name_no_database_holds_is_400_naming_its_field_and_stores_nothing()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        foreach (var (what, breakIt, field) in BadNames)
        {
            var body = RunningResultsServer.UploadBody("a1");
            breakIt(body);

            // The JSON writer would replace a lone surrogate; a client's hand-written body sends it as an escape.
            using var response = await server.UploadAsync(body.ToJsonString().Replace("LONE", "\\ud800", StringComparison.Ordinal));

            response.StatusCode.Should().Be(HttpStatusCode.BadRequest, what);
            (await ResultsServerUploadTests.ProblemDetail(response)).Should().Contain(field, what);
        }

        (await server.CountAsync()).Should().Be((0, 0));
    }

    // A lone surrogate in a property name: the name a field is looked up by, not its value.
    [Theory]
    [InlineData("commit", "{\"comm\\ud800it\": \"a1\", ")]
    [InlineData("a result's kind", "{\"commit\": \"a1\", ")]
    [InlineData("an ancestry entry's parents", "{\"commit\": \"a1\", \"ancestry\": [{\"commit\": \"g1\", \"paren\\ud800ts\": [\"g0\"]}], ")]
    public async Task A_lone_surrogate_in_a_property_name_is_400_naming_it_and_stores_nothing(string what, string start)
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var body = RunningResultsServer.UploadBody("a1");
        body.Remove("commit");
        var text = start + body.ToJsonString()[1..];
        if (what == "a result's kind")
        {
            text = text.Replace("\"kind\"", "\"kin\\udc00d\"", StringComparison.Ordinal);
        }

        using var response = await server.UploadAsync(text);

        response.StatusCode.Should().Be(HttpStatusCode.BadRequest, what);
        (await ResultsServerUploadTests.ProblemDetail(response)).Should().Contain("property name", what).And.Contain("lone UTF-16 surrogate", what);
        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Theory]
    [InlineData("api/projects/gate/budgets?branch=ma%00in", "'?branch=' holds a NUL character")]
    [InlineData("api/projects/gate/runs?commit=a%00", "'?commit=' holds a NUL character")]
    [InlineData("api/projects/gate/budgets/x%00y/series", null)] // Kestrel's own 400: no NUL in a path
    [InlineData("projects/gate?branch=%0A", "'?branch=' holds a control character")]
    [InlineData("api/projects/gate/changes?branch=%ED%A0%80", null)] // invalid UTF-8: decoded as U+FFFD, a name like any other
    public async Task A_read_naming_what_no_name_holds_is_4xx_naming_the_field(string path, string? field)
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);

        using var response = await server.Http.GetAsync(path, TestContext.Current.CancellationToken);

        ((int)response.StatusCode).Should().BeInRange(200, 499);
        if (field is not null)
        {
            response.StatusCode.Should().Be(HttpStatusCode.BadRequest);
            (await ResultsServerUploadTests.ProblemDetail(response)).Should().Contain(field);
        }
    }

    [Fact]
    public async Task A_project_name_longer_than_100_characters_is_400_naming_it()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);

        using var response = await server.Http.GetAsync($"api/projects/{new string('p', 101)}/budgets", TestContext.Current.CancellationToken);

        response.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await ResultsServerUploadTests.ProblemDetail(response)).Should().Contain("'project' is 101 characters long; this server takes at most 100");
    }
}

/// <summary>Figures and names on SQLite.</summary>
public sealed class ResultsServerFiguresAndNamesTestsOnSqlite : ResultsServerFiguresAndNamesTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Figures and names on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ResultsServerFiguresAndNamesTestsOnPostgres(PostgresCluster cluster) : ResultsServerFiguresAndNamesTests
{
    protected override PostgresCluster? Postgres => cluster;
}
