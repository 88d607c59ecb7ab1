using System.Net;
using System.Net.Http.Headers;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary>What every dashboard page tells the browser: no other site may frame it, and a page read with a token is never cached.</summary>
public sealed class PageHeadersTests
{
    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task No_page_may_be_framed_by_another_site()
    {
        await using var server = await RunningResultsServer.StartAsync();
        await ResultsServerReadApiTests.UploadAsync(server, "a1", measured: 120);
        await using var reading = await RunningResultsServer.StartAsync(readTokenRequired: true);

        foreach (var (on, path) in new[] { (server, "/"), (server, $"/projects/{RunningResultsServer.Project}"), (reading, $"/projects/{RunningResultsServer.Project}/sign-in") })
        {
            using var page = await on.Http.GetAsync(path, Cancellation);
            page.Headers.GetValues("Content-Security-Policy").Single().Should().Contain("frame-ancestors 'none'", path);
        }
    }

    [Fact]
    public async Task Pages_and_api_reads_of_a_server_that_needs_a_token_to_read_are_not_stored_by_any_cache()
    {
        await using var server = await RunningResultsServer.StartAsync(readTokenRequired: true);
        await ResultsServerReadApiTests.UploadAsync(server, "a1", measured: 120);

        using var page = await GetAsync(server, $"/projects/{RunningResultsServer.Project}");
        using var api = await GetAsync(server, $"/api/projects/{RunningResultsServer.Project}/runs?commit=a1");

        page.StatusCode.Should().Be(HttpStatusCode.OK);
        page.Headers.CacheControl!.NoStore.Should().BeTrue();
        api.StatusCode.Should().Be(HttpStatusCode.OK);
        api.Headers.CacheControl!.NoStore.Should().BeTrue();
    }

    private static Task<HttpResponseMessage> GetAsync(RunningResultsServer server, string path)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", server.Token);
        return server.Http.SendAsync(request, Cancellation);
    }
}
