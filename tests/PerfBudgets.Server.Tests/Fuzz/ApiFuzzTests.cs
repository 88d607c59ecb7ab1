using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests.Fuzz;

/// <summary>
/// Generated uploads and reads (<see cref="FuzzedRequests"/>, a fixed seed) for a fixed time per database: every answer
/// is 2xx or 4xx, never 5xx, and after each upload the reads of what it stored (its branch's budgets, each budget's
/// series and page, its commit's baseline, the changes) and of the project still answer.
/// </summary>
public abstract class ApiFuzzTests
{
    private const int Seed = 20_261_128;

    // The fewest bodies a run tries, however slow the machine: the run goes on past its time until it has tried them.
    private const int MinimumBodies = 50;

    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    // 20 s a database by default; PERF_SERVER_FUZZ_SECONDS sets another length.
    private static TimeSpan Duration =>
        TimeSpan.FromSeconds(int.TryParse(Environment.GetEnvironmentVariable("PERF_SERVER_FUZZ_SECONDS"), CultureInfo.InvariantCulture, out var s) && s > 0 ? s : 20);

    [Fact]
    public async Task Generated_uploads_and_reads_are_never_answered_5xx_and_every_read_after_them_answers()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var requests = new FuzzedRequests(Seed);
        var failures = new List<string>();
        var (bodies, accepted, reads) = (0, 0, 0);
        var clock = Stopwatch.StartNew();
        while ((clock.Elapsed < Duration || bodies < MinimumBodies) && failures.Count < 10)
        {
            var (body, withToken, asJson, key) = requests.NextUpload(bodies++);
            var status = await UploadAsync(server, body, withToken, asJson, key);
            Check(status, requests.Last, failures);
            if (status is 200 or 201)
            {
                accepted++;
                foreach (var read in ReadsOf(JsonNode.Parse(body)!))
                {
                    reads++;
                    Check(await GetAsync(server, read), $"{requests.Last}, then GET /{read}", failures);
                }
            }

            for (var i = 0; i < 2; i++)
            {
                reads++;
                var read = requests.NextRead();
                Check(await GetAsync(server, read), requests.Last, failures);
            }
        }

        var database = Postgres is null ? "SQLite" : "PostgreSQL";
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"fuzz on {database}, seed {Seed}, {clock.Elapsed.TotalSeconds:0} s: {bodies} bodies tried ({accepted} stored), {reads} reads, {failures.Count} 5xx or broken off");
        failures.Should().BeEmpty();
        bodies.Should().BeGreaterThanOrEqualTo(MinimumBodies, "the run tried enough bodies to mean something");
    }

    // The reads of what an accepted upload stored, by the names it gave them.
    private static IEnumerable<string> ReadsOf(JsonNode body)
    {
        var api = $"api/projects/{RunningResultsServer.Project}";
        var branch = FuzzedRequests.Escape(body["branch"]!.GetValue<string>());
        yield return $"{api}/runs?commit={FuzzedRequests.Escape(body["commit"]!.GetValue<string>())}";
        yield return $"{api}/budgets?branch={branch}";
        yield return $"{api}/changes?branch={branch}";
        yield return $"projects/{RunningResultsServer.Project}?branch={branch}";
        foreach (var result in body["results"]!["results"]!.AsArray())
        {
            var budget = FuzzedRequests.Escape(result!["budget"]!.GetValue<string>());
            yield return $"{api}/budgets/{budget}/series";
            yield return $"projects/{RunningResultsServer.Project}/budgets/{budget}?branch={branch}";
        }

        yield return "";
    }

    // A 5xx, or an answer the server broke off (an exception while it wrote the body: the status line had gone).
    private static void Check(int status, string what, List<string> failures)
    {
        if (status is >= 500 or BrokenOff)
        {
            failures.Add($"{(status == BrokenOff ? "broken off" : status)} for {what}");
        }
    }

    private const int BrokenOff = -1;

    private static async Task<int> StatusAsync(Func<Task<HttpResponseMessage>> send)
    {
        try
        {
            using var response = await send();
            await response.Content.LoadIntoBufferAsync(TestContext.Current.CancellationToken);
            return (int)response.StatusCode;
        }
        catch (HttpRequestException)
        {
            return BrokenOff;
        }
    }

    private static async Task<int> UploadAsync(RunningResultsServer server, string body, bool withToken, bool asJson, string? key)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, $"api/projects/{RunningResultsServer.Project}/runs")
        {
            Content = new StringContent(body, Encoding.UTF8, asJson ? "application/json" : "text/plain"),
        };
        if (withToken)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", server.Token);
        }

        if (key is not null)
        {
            request.Headers.TryAddWithoutValidation("Idempotency-Key", key);
        }

        return await StatusAsync(() => server.Http.SendAsync(request, TestContext.Current.CancellationToken));
    }

    private static Task<int> GetAsync(RunningResultsServer server, string url) =>
        StatusAsync(() => server.Http.GetAsync(url, TestContext.Current.CancellationToken));
}

/// <summary>The fuzz test on SQLite.</summary>
public sealed class ApiFuzzTestsOnSqlite : ApiFuzzTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>The fuzz test on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ApiFuzzTestsOnPostgres(PostgresCluster cluster) : ApiFuzzTests
{
    protected override PostgresCluster? Postgres => cluster;
}
