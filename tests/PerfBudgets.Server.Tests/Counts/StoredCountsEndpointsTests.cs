using System.Net;
using System.Net.Http.Headers;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;

namespace PerfBudgets.Server.Tests.Counts;

/// <summary>
/// The counted runs a project stores for reuse (<c>/api/projects/{project}/counts</c>): stored by key with the write
/// token, listed and read back byte for byte, the least recently used beyond the project's bound deleted, and every
/// wrong request a 4xx problem that stores nothing.
/// </summary>
public abstract class StoredCountsEndpointsTests
{
    private static readonly string KeyA = new('a', 64);
    private static readonly string KeyB = new('b', 64);
    private static readonly string KeyC = new('c', 64);

    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private Task<RunningResultsServer> StartAsync(Func<ResultsServerOptions, ResultsServerOptions>? configure = null) =>
        RunningResultsServer.StartAsync(postgres: Postgres, configure: configure);

    [Fact]
    public async Task A_stored_count_is_listed_and_read_back_byte_for_byte_and_storing_its_key_again_keeps_the_first()
    {
        await using var server = await StartAsync();
        var archive = Bytes(100_000, seed: 1);

        using var stored = await PutAsync(server, KeyA, archive);
        using var again = await PutAsync(server, KeyA, Bytes(10, seed: 2));
        using var read = await server.Http.GetAsync(CountPath(KeyA), TestContext.Current.CancellationToken);
        var list = await ListAsync(server);

        stored.StatusCode.Should().Be(HttpStatusCode.Created);
        again.StatusCode.Should().Be(HttpStatusCode.OK, "the key was stored already");
        read.StatusCode.Should().Be(HttpStatusCode.OK);
        read.Content.Headers.ContentType!.MediaType.Should().Be("application/zip");
        (await read.Content.ReadAsByteArrayAsync(TestContext.Current.CancellationToken)).Should().Equal(archive, "the first archive of a key is kept");
        list.Should().ContainSingle().Which.Should().Be((KeyA, 100_000L));
    }

    [Fact]
    public async Task A_stored_count_larger_than_a_results_upload_may_be_is_taken_up_to_its_own_limit()
    {
        await using var server = await StartAsync(o => o with { MaxUploadBytes = 4_096, MaxStoredCountBytes = 64_000 });

        using var under = await PutAsync(server, KeyA, Bytes(60_000, seed: 3));
        using var over = await PutAsync(server, KeyB, Bytes(70_000, seed: 4));

        under.StatusCode.Should().Be(HttpStatusCode.Created);
        over.StatusCode.Should().Be(HttpStatusCode.RequestEntityTooLarge);
        (await ResultsServerUploadTests.ProblemDetail(over)).Should().Contain("MaxStoredCountBytes");
        (await ListAsync(server)).Select(c => c.Key).Should().Equal(KeyA);
    }

    [Fact]
    public async Task Beyond_the_projects_bound_the_least_recently_used_count_is_deleted()
    {
        await using var server = await StartAsync(o => o with { StoredCountsPerProject = 2 });
        (await PutAsync(server, KeyA, Bytes(10, seed: 5))).Dispose();
        (await PutAsync(server, KeyB, Bytes(10, seed: 6))).Dispose();
        // Fetched is used: A is now newer than B.
        (await server.Http.GetAsync(CountPath(KeyA), TestContext.Current.CancellationToken)).Dispose();

        (await PutAsync(server, KeyC, Bytes(10, seed: 7))).Dispose();
        using var gone = await server.Http.GetAsync(CountPath(KeyB), TestContext.Current.CancellationToken);

        (await ListAsync(server)).Select(c => c.Key).Should().Equal(KeyC, KeyA);
        gone.StatusCode.Should().Be(HttpStatusCode.NotFound);
        (await ResultsServerUploadTests.ProblemDetail(gone)).Should().Contain("no stored count of key");
    }

    [Fact]
    public async Task Beyond_the_projects_bytes_the_least_recently_used_counts_are_deleted()
    {
        // 100 KB each, 250 KB kept in all: the third store leaves room for two.
        await using var server = await StartAsync(o => o with { MaxStoredCountBytes = 120_000, StoredCountBytesPerProject = 250_000 });
        (await PutAsync(server, KeyA, Bytes(100_000, seed: 13))).Dispose();
        (await PutAsync(server, KeyB, Bytes(100_000, seed: 14))).Dispose();
        (await server.Http.GetAsync(CountPath(KeyA), TestContext.Current.CancellationToken)).Dispose();

        using var third = await PutAsync(server, KeyC, Bytes(100_000, seed: 15));

        third.StatusCode.Should().Be(HttpStatusCode.Created);
        (await ListAsync(server)).Should().Equal((KeyC, 100_000L), (KeyA, 100_000L));
    }

    [Fact]
    public async Task Marked_used_a_count_outlives_one_stored_after_it_and_keys_it_does_not_hold_are_not_counted()
    {
        await using var server = await StartAsync(o => o with { StoredCountsPerProject = 2 });
        (await PutAsync(server, KeyA, Bytes(10, seed: 16))).Dispose();
        (await PutAsync(server, KeyB, Bytes(10, seed: 17))).Dispose();

        // A main's CI that reused A from its own cache: A is now newer than B, and C, which it does not hold, is not marked.
        using var marked = await MarkUsedAsync(server, $$"""{"keys": ["{{KeyA}}", "{{KeyC}}", "{{KeyA}}"]}""");
        (await PutAsync(server, KeyC, Bytes(10, seed: 18))).Dispose();

        marked.StatusCode.Should().Be(HttpStatusCode.OK);
        JsonNode.Parse(await marked.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!["marked"]!.GetValue<int>().Should().Be(1);
        (await ListAsync(server)).Select(c => c.Key).Should().Equal(KeyC, KeyA);
    }

    [Theory]
    [InlineData("no token", HttpStatusCode.Unauthorized)]
    [InlineData("a wrong token", HttpStatusCode.Forbidden)]
    [InlineData("a body that is not JSON", HttpStatusCode.BadRequest)]
    [InlineData("keys that are not an array", HttpStatusCode.BadRequest)]
    [InlineData("a key of another shape", HttpStatusCode.BadRequest)]
    [InlineData("a key that escapes a lone surrogate", HttpStatusCode.BadRequest)]
    [InlineData("a media type that is not JSON", HttpStatusCode.UnsupportedMediaType)]
    [InlineData("more keys than a project holds", HttpStatusCode.BadRequest)]
    [InlineData("a body past the bound", HttpStatusCode.RequestEntityTooLarge)]
    public async Task A_wrong_mark_is_refused_and_marks_nothing(string wrong, HttpStatusCode status)
    {
        await using var server = await StartAsync(o => o with { StoredCountsPerProject = 2 });
        (await PutAsync(server, KeyA, Bytes(10, seed: 19))).Dispose();
        (await PutAsync(server, KeyB, Bytes(10, seed: 20))).Dispose();
        var keys = $$"""{"keys": ["{{KeyA}}"]}""";
        var (body, token, type) = wrong switch
        {
            "no token" => (keys, "", "application/json"),
            "a wrong token" => (keys, "not-the-token", "application/json"),
            "a body that is not JSON" => ("{\"keys\": [", server.Token, "application/json"),
            "keys that are not an array" => ($$"""{"keys": "{{KeyA}}"}""", server.Token, "application/json"),
            "a key of another shape" => ($$"""{"keys": ["{{KeyA}}", "{{new string('A', 64)}}"]}""", server.Token, "application/json"),
            "a key that escapes a lone surrogate" => ("{\"keys\": [\"\\ud800\"]}", server.Token, "application/json"),
            "a media type that is not JSON" => (keys, server.Token, "text/plain"),
            "more keys than a project holds" => ($$"""{"keys": ["{{KeyA}}", "{{KeyB}}", "{{KeyC}}"]}""", server.Token, "application/json"),
            _ => ($$"""{"keys": ["{{KeyA}}"], "padding": "{{new string(' ', 4_096)}}"}""", server.Token, "application/json"),
        };

        using var answer = await MarkUsedAsync(server, body, token, type);

        answer.StatusCode.Should().Be(status, wrong);
        answer.Content.Headers.ContentType!.MediaType.Should().Be("application/problem+json");
        (await ListAsync(server)).Select(c => c.Key).Should().Equal([KeyB, KeyA], "A was not marked: B, stored after it, is still the newer");
    }

    [Fact]
    public async Task A_write_token_replaced_while_a_stored_count_arrived_stores_nothing()
    {
        await using var server = await StartAsync();
        var cancellation = TestContext.Current.CancellationToken;
        var before = PerfBudgets.Server.Tokens.ProjectToken.Hash(server.Token);
        await server.Server.Storage.SetWriteTokenAsync(RunningResultsServer.Project, PerfBudgets.Server.Tokens.ProjectToken.Hash("the new token"), cancellation);

        var store = () => server.Server.Storage.PutCountAsync(RunningResultsServer.Project, KeyA, Bytes(10, seed: 11), 64, 1 << 20, before, cancellation);

        (await store.Should().ThrowAsync<ServerInputException>()).Which.StatusCode.Should().Be(403);
        (await server.Server.Storage.ListCountsAsync(RunningResultsServer.Project, cancellation)).Should().BeEmpty();
    }

    [Fact]
    public async Task A_zip_media_type_with_a_parameter_is_a_zip()
    {
        await using var server = await StartAsync();

        using var stored = await PutAsync(server, KeyA, Bytes(10, seed: 12), type: "application/zip; name=entry.zip");

        stored.StatusCode.Should().Be(HttpStatusCode.Created);
    }

    [Theory]
    [InlineData("no token", HttpStatusCode.Unauthorized)]
    [InlineData("a wrong token", HttpStatusCode.Forbidden)]
    [InlineData("a key that is not 64 lowercase hex digits", HttpStatusCode.BadRequest)]
    [InlineData("a body that is not a zip's media type", HttpStatusCode.UnsupportedMediaType)]
    [InlineData("an empty body", HttpStatusCode.BadRequest)]
    public async Task A_wrong_store_is_refused_and_stores_nothing(string wrong, HttpStatusCode status)
    {
        await using var server = await StartAsync();
        var (key, token, type, body) = wrong switch
        {
            "no token" => (KeyA, "", "application/zip", Bytes(10, seed: 8)),
            "a wrong token" => (KeyA, "not-the-token", "application/zip", Bytes(10, seed: 8)),
            "a key that is not 64 lowercase hex digits" => (new string('A', 64), server.Token, "application/zip", Bytes(10, seed: 8)),
            "a body that is not a zip's media type" => (KeyA, server.Token, "application/json", Bytes(10, seed: 8)),
            _ => (KeyA, server.Token, "application/zip", Array.Empty<byte>()),
        };

        using var answer = await PutAsync(server, key, body, token, type);

        answer.StatusCode.Should().Be(status, wrong);
        answer.Content.Headers.ContentType!.MediaType.Should().Be("application/problem+json");
        (await ListAsync(server)).Should().BeEmpty();
    }

    [Theory]
    [InlineData("counts/short")]
    [InlineData("counts/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaag")]
    public async Task A_read_of_a_key_of_another_shape_is_400(string path)
    {
        await using var server = await StartAsync();

        using var answer = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/{path}", TestContext.Current.CancellationToken);

        answer.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        (await ResultsServerUploadTests.ProblemDetail(answer)).Should().Contain("64 lowercase hex digits");
    }

    [Fact]
    public async Task The_counts_of_an_unknown_project_are_404_to_read_and_403_to_store()
    {
        await using var server = await StartAsync();

        using var list = await server.Http.GetAsync("api/projects/nobody/counts", TestContext.Current.CancellationToken);
        using var read = await server.Http.GetAsync($"api/projects/nobody/counts/{KeyA}", TestContext.Current.CancellationToken);
        using var request = new HttpRequestMessage(HttpMethod.Put, $"api/projects/nobody/counts/{KeyA}") { Content = Zip(Bytes(10, seed: 9)) };
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", server.Token);
        using var store = await server.Http.SendAsync(request, TestContext.Current.CancellationToken);

        list.StatusCode.Should().Be(HttpStatusCode.NotFound);
        read.StatusCode.Should().Be(HttpStatusCode.NotFound);
        store.StatusCode.Should().Be(HttpStatusCode.Forbidden);
    }

    [Fact]
    public async Task With_read_tokens_required_a_stored_count_is_read_only_with_a_token()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres, readTokenRequired: true);
        (await PutAsync(server, KeyA, Bytes(10, seed: 10))).Dispose();

        using var anonymous = await server.Http.GetAsync(CountPath(KeyA), TestContext.Current.CancellationToken);
        using var request = new HttpRequestMessage(HttpMethod.Get, CountPath(KeyA));
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", server.Token);
        using var holder = await server.Http.SendAsync(request, TestContext.Current.CancellationToken);

        anonymous.StatusCode.Should().Be(HttpStatusCode.Unauthorized);
        holder.StatusCode.Should().Be(HttpStatusCode.OK);
    }

    internal static string CountPath(string key) => $"api/projects/{RunningResultsServer.Project}/counts/{key}";

    internal static async Task<List<(string Key, long Bytes)>> ListAsync(RunningResultsServer server)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, $"api/projects/{RunningResultsServer.Project}/counts");
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", server.Token);
        using var answer = await server.Http.SendAsync(request, TestContext.Current.CancellationToken);
        answer.StatusCode.Should().Be(HttpStatusCode.OK);
        var json = JsonNode.Parse(await answer.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!;
        return json["counts"]!.AsArray().Select(c => (c!["key"]!.GetValue<string>(), c["bytes"]!.GetValue<long>())).ToList();
    }

    internal static Task<HttpResponseMessage> PutAsync(RunningResultsServer server, string key, byte[] body, string? token = null, string type = "application/zip")
    {
        var request = new HttpRequestMessage(HttpMethod.Put, CountPath(key)) { Content = Zip(body, type) };
        if ((token ?? server.Token) is { Length: > 0 } bearer)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", bearer);
        }

        return server.Http.SendAsync(request, TestContext.Current.CancellationToken);
    }

    private static Task<HttpResponseMessage> MarkUsedAsync(RunningResultsServer server, string body, string? token = null, string type = "application/json")
    {
        var request = new HttpRequestMessage(HttpMethod.Post, $"api/projects/{RunningResultsServer.Project}/counts/used")
        {
            Content = new StringContent(body, System.Text.Encoding.UTF8, MediaTypeHeaderValue.Parse(type)),
        };
        if ((token ?? server.Token) is { Length: > 0 } bearer)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", bearer);
        }

        return server.Http.SendAsync(request, TestContext.Current.CancellationToken);
    }

    private static ByteArrayContent Zip(byte[] body, string type = "application/zip") =>
        new(body) { Headers = { ContentType = MediaTypeHeaderValue.Parse(type) } };

    private static byte[] Bytes(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}

/// <summary>Stored counts on SQLite.</summary>
public sealed class StoredCountsEndpointsTestsOnSqlite : StoredCountsEndpointsTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Stored counts on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class StoredCountsEndpointsTestsOnPostgres(PostgresCluster cluster) : StoredCountsEndpointsTests
{
    protected override PostgresCluster? Postgres => cluster;
}
