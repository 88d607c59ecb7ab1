using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;
using PerfBudgets.Server;
using PerfBudgets.Server.Tokens;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// A results server on a real Kestrel socket (127.0.0.1, a free port) over a SQLite file in a temporary folder, or over
/// a schema of its own in the test run's PostgreSQL cluster, with one project and its token, and the budgets.json text a
/// test gives it (<c>serve --budgets</c>); the folder is deleted when the test ends.
/// </summary>
internal sealed class RunningResultsServer : IAsyncDisposable
{
    public const string Project = "gate";

    private readonly string _folder;

    private RunningResultsServer(string folder, ResultsServer server, string token)
    {
        _folder = folder;
        Server = server;
        Token = token;
        Http = new HttpClient { BaseAddress = server.Address, Timeout = TimeSpan.FromSeconds(30) };
    }

    public ResultsServer Server { get; }

    public string Token { get; }

    public HttpClient Http { get; }

    public string DatabasePath => Path.Combine(_folder, "results.db");

    public static async Task<RunningResultsServer> StartAsync(long maxUploadBytes = 8 * 1024 * 1024, bool readTokenRequired = false,
        PostgresCluster? postgres = null, string? commitUrlTemplate = null, string? budgetsJson = null,
        Func<ResultsServerOptions, ResultsServerOptions>? configure = null, Microsoft.Extensions.Logging.ILoggerProvider? logs = null)
    {
        var connectionString = postgres is null ? null : await postgres.NewDatabaseAsync();
        var folder = Directory.CreateTempSubdirectory("perfbudgets-server-").FullName;
        string? budgetsFile = null;
        if (budgetsJson is not null)
        {
            budgetsFile = Path.Combine(folder, "budgets.json");
            await File.WriteAllTextAsync(budgetsFile, budgetsJson, TestContext.Current.CancellationToken);
        }

        var options = new ResultsServerOptions
        {
            DatabasePath = Path.Combine(folder, "results.db"),
            PostgresConnectionString = connectionString,
            CommitUrlTemplate = commitUrlTemplate,
            Url = "http://127.0.0.1:0",
            MaxUploadBytes = maxUploadBytes,
            ReadTokenRequired = readTokenRequired,
            BudgetsFile = budgetsFile,
        };
        var server = ResultsServer.Create(configure is null ? options : configure(options), logs);
        await server.StartAsync();
        var token = ProjectToken.NewToken();
        await server.Storage.CreateProjectAsync(Project, ProjectToken.Hash(token), TestContext.Current.CancellationToken);
        return new RunningResultsServer(folder, server, token);
    }

    /// <summary>A results.json as src/PerfBudgets writes it, with <paramref name="budgets"/> figures.</summary>
    public static string ResultsJson(int budgets = 3, double measured = 120)
    {
        var results = new JsonArray();
        for (var i = 0; i < budgets; i++)
        {
            results.Add(Result($"Test.Budget{i}.BytesPerOp", "allocated-bytes-per-op", measured + i, 200, "B/op", direction: "max"));
        }

        return new JsonObject { ["results"] = results }.ToJsonString();
    }

    /// <summary>
    /// One entry of a results.json as src/PerfBudgets writes it, on a fixed machine and time: passed when
    /// <paramref name="measured"/> is at most <paramref name="limit"/>; <paramref name="attribution"/> and
    /// <paramref name="direction"/> only where given.
    /// </summary>
    public static JsonObject Result(string budget, string kind, double measured, double limit, string unit, JsonObject? attribution = null, string? direction = null)
    {
        var result = new JsonObject
        {
            ["budget"] = budget,
            ["kind"] = kind,
            ["measured"] = measured,
            ["limit"] = limit,
            ["unit"] = unit,
            ["verdict"] = measured <= limit ? "pass" : "fail",
            ["profile"] = "ci",
            ["timestampUtc"] = "2026-11-24T20:00:00+00:00",
            ["machine"] = new JsonObject
            {
                ["logicalCores"] = 2, ["operatingSystem"] = "Linux", ["architecture"] = "X64",
                ["runtime"] = ".NET 10.0.12", ["gcMode"] = "workstation", ["concurrentGc"] = true,
            },
            ["detail"] = null,
        };
        if (attribution is not null)
        {
            result["attribution"] = attribution;
        }

        if (direction is not null)
        {
            result["direction"] = direction;
        }

        return result;
    }

    /// <summary>A well-formed upload body for <paramref name="commit"/>; a test breaks it on purpose.</summary>
    public static JsonObject UploadBody(string commit, string[]? parents = null, string? resultsJson = null) => new()
    {
        ["commit"] = commit,
        ["branch"] = "main",
        ["parents"] = new JsonArray((parents ?? []).Select(p => (JsonNode?)JsonValue.Create(p)).ToArray()),
        ["runtime"] = ".NET 10.0.12",
        ["valgrindVersion"] = "valgrind-3.24.0",
        ["machine"] = "ci-runner-1",
        ["results"] = JsonNode.Parse(resultsJson ?? ResultsJson()),
    };

    public Task<HttpResponseMessage> UploadAsync(string body, string? token = null, string contentType = "application/json")
    {
        var request = new HttpRequestMessage(HttpMethod.Post, $"api/projects/{Project}/runs")
        {
            Content = new StringContent(body, Encoding.UTF8, contentType),
        };
        if ((token ?? Token) is { Length: > 0 } bearer)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", bearer);
        }

        return Http.SendAsync(request);
    }

    public async Task<(long Runs, long Results)> CountAsync() => await Server.Storage.CountAsync(Project, TestContext.Current.CancellationToken);

    public async ValueTask DisposeAsync()
    {
        Http.Dispose();
        await Server.DisposeAsync();
        Directory.Delete(_folder, recursive: true);
    }
}
