using System.Net;
using PerfBudgets.Server.Tokens;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary>
/// A browser on a <c>--read-token-required</c> server: the refused page links to the project's sign-in, the sign-in
/// keeps a right token in a cookie for that project's pages, and the cookie neither uploads nor reads the API.
/// </summary>
public sealed class SignInTests
{
    [Fact]
    public async Task A_refused_page_links_to_sign_in_and_the_read_token_signs_a_browser_in_to_that_page_and_no_other_project()
    {
        await using var server = await RunningResultsServer.StartAsync(readTokenRequired: true);
        await ResultsServerReadApiTests.UploadAsync(server, "a1", measured: 120);
        var readToken = ProjectToken.NewToken();
        await server.Server.Storage.SetReadTokenAsync(RunningResultsServer.Project, ProjectToken.Hash(readToken), TestContext.Current.CancellationToken);
        await server.Server.Storage.CreateProjectAsync("other", ProjectToken.Hash(ProjectToken.NewToken()), TestContext.Current.CancellationToken);
        using var browser = Browser(server);
        var page = $"/projects/{RunningResultsServer.Project}/budgets/Test.Budget0.BytesPerOp";

        using var refused = await browser.GetAsync(page, TestContext.Current.CancellationToken);
        var refusedHtml = await refused.Content.ReadAsStringAsync(TestContext.Current.CancellationToken);
        using var signInPage = await browser.GetAsync($"/projects/{RunningResultsServer.Project}/sign-in?return={Uri.EscapeDataString(page)}", TestContext.Current.CancellationToken);
        using var signedIn = await PostAsync(browser, RunningResultsServer.Project, readToken, page);
        using var after = await browser.GetAsync(page, TestContext.Current.CancellationToken);
        using var otherProject = await browser.GetAsync("/projects/other", TestContext.Current.CancellationToken);

        refused.StatusCode.Should().Be(HttpStatusCode.Unauthorized);
        refusedHtml.Should().Contain($"href=\"/projects/{RunningResultsServer.Project}/sign-in?return=%2Fprojects%2F{RunningResultsServer.Project}%2Fbudgets%2FTest.Budget0.BytesPerOp\"");
        signInPage.StatusCode.Should().Be(HttpStatusCode.OK);
        signInPage.Headers.GetValues("Content-Security-Policy").Single().Should().Contain("form-action 'self'");
        (await signInPage.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().Contain("type=\"password\" name=\"token\"")
            .And.Contain($"name=\"return\" value=\"{page}\"");
        signedIn.StatusCode.Should().Be(HttpStatusCode.Redirect);
        signedIn.Headers.Location!.OriginalString.Should().Be(page);
        var cookie = signedIn.Headers.GetValues("Set-Cookie").Single();
        cookie.Should().StartWith("perfbudgets-read=").And.Contain($"path=/projects/{RunningResultsServer.Project}")
            .And.Contain("httponly").And.Contain("samesite=strict");
        after.StatusCode.Should().Be(HttpStatusCode.OK);
        (await after.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().Contain("Test.Budget0.BytesPerOp");
        otherProject.StatusCode.Should().Be(HttpStatusCode.Unauthorized, "the cookie is scoped to the project it was signed in to");
    }

    [Fact]
    public async Task A_wrong_token_a_foreign_origin_or_a_foreign_return_sets_nothing_and_the_cookie_neither_uploads_nor_reads_the_api()
    {
        await using var server = await RunningResultsServer.StartAsync(readTokenRequired: true);
        await ResultsServerReadApiTests.UploadAsync(server, "a1", measured: 120);
        using var browser = Browser(server);
        var project = RunningResultsServer.Project;
        var readToken = await TokenAdministration.AddReadTokenAsync(server.Server.Storage, project, TestContext.Current.CancellationToken);

        using var wrong = await PostAsync(browser, project, new string('0', 64), $"/projects/{project}");
        using var foreign = await PostAsync(browser, project, readToken, $"/projects/{project}", origin: "https://evil.example");
        using var elsewhere = await PostAsync(browser, project, readToken, "https://evil.example/");
        using var cookieUpload = await SendWithCookieAsync(server, HttpMethod.Post, $"/api/projects/{project}/runs",
            new StringContent(RunningResultsServer.UploadBody("a2").ToJsonString(), System.Text.Encoding.UTF8, "application/json"));
        using var cookieApi = await SendWithCookieAsync(server, HttpMethod.Get, $"/api/projects/{project}/budgets", content: null);

        wrong.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        wrong.Headers.Contains("Set-Cookie").Should().BeFalse();
        (await wrong.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().Contain("not project &#x27;gate&#x27;&#x27;s read-only token");
        foreign.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        foreign.Headers.Contains("Set-Cookie").Should().BeFalse();
        elsewhere.StatusCode.Should().Be(HttpStatusCode.Redirect);
        elsewhere.Headers.Location!.OriginalString.Should().Be($"/projects/{project}", "a sign-in returns only to a page of its project");
        cookieUpload.StatusCode.Should().Be(HttpStatusCode.Unauthorized, "the cookie holds the write token here, but writing takes a bearer token alone");
        cookieApi.StatusCode.Should().Be(HttpStatusCode.Unauthorized, "the API reads bearer tokens alone");
        (await server.CountAsync()).Runs.Should().Be(1);
    }

    [Fact]
    public async Task The_cookie_holds_a_session_not_the_token_and_the_write_token_does_not_sign_in()
    {
        await using var server = await RunningResultsServer.StartAsync(readTokenRequired: true);
        var project = RunningResultsServer.Project;
        var readToken = await TokenAdministration.AddReadTokenAsync(server.Server.Storage, project, TestContext.Current.CancellationToken);
        using var browser = Browser(server);

        using var withWriteToken = await PostAsync(browser, project, server.Token, $"/projects/{project}");
        using var signedIn = await PostAsync(browser, project, readToken, $"/projects/{project}");

        withWriteToken.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        withWriteToken.Headers.Contains("Set-Cookie").Should().BeFalse();
        (await withWriteToken.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().Contain("write token");
        var cookie = signedIn.Headers.GetValues("Set-Cookie").Single();
        cookie.Should().NotContain(readToken).And.NotContain(server.Token);
        cookie.Should().MatchRegex("^perfbudgets-read=[0-9]+\\.[0-9a-f]{64};");
    }

    [Fact]
    public async Task A_new_read_only_token_ends_every_session_and_an_expired_session_reads_nothing()
    {
        await using var server = await RunningResultsServer.StartAsync(readTokenRequired: true);
        await ResultsServerReadApiTests.UploadAsync(server, "a1", measured: 120);
        var project = RunningResultsServer.Project;
        var readToken = await TokenAdministration.AddReadTokenAsync(server.Server.Storage, project, TestContext.Current.CancellationToken);
        using var browser = Browser(server);
        (await PostAsync(browser, project, readToken, $"/projects/{project}")).Dispose();
        var readHash = await server.Server.Storage.ReadTokenHashAsync(project, TestContext.Current.CancellationToken);
        var expired = DashboardSession.Create(project, readHash!, DateTimeOffset.UtcNow.AddMinutes(-1));

        using var before = await browser.GetAsync($"/projects/{project}", TestContext.Current.CancellationToken);
        using var withExpired = await SendWithCookieAsync(server, HttpMethod.Get, $"/projects/{project}", content: null, cookie: expired);
        await TokenAdministration.AddReadTokenAsync(server.Server.Storage, project, TestContext.Current.CancellationToken);
        using var after = await browser.GetAsync($"/projects/{project}", TestContext.Current.CancellationToken);

        before.StatusCode.Should().Be(HttpStatusCode.OK);
        withExpired.StatusCode.Should().Be(HttpStatusCode.Unauthorized);
        after.StatusCode.Should().Be(HttpStatusCode.Unauthorized);
        (await after.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().Contain("sign in again").And.Contain("sign-in?return=");
    }

    [Fact]
    public async Task On_a_public_server_sign_in_goes_straight_to_the_project()
    {
        await using var server = await RunningResultsServer.StartAsync();
        using var browser = Browser(server);

        using var answer = await browser.GetAsync($"/projects/{RunningResultsServer.Project}/sign-in", TestContext.Current.CancellationToken);

        answer.StatusCode.Should().Be(HttpStatusCode.Redirect);
        answer.Headers.Location!.OriginalString.Should().Be($"/projects/{RunningResultsServer.Project}");
    }

    // A client that keeps cookies and shows redirects as they are, as a browser's first hop.
    private static HttpClient Browser(RunningResultsServer server) =>
        new(new HttpClientHandler { AllowAutoRedirect = false, UseCookies = true, CookieContainer = new CookieContainer() })
        {
            BaseAddress = server.Http.BaseAddress,
        };

    private static async Task<HttpResponseMessage> PostAsync(HttpClient browser, string project, string token, string returnPath, string? origin = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/projects/{project}/sign-in")
        {
            Content = new FormUrlEncodedContent([new("token", token), new("return", returnPath)]),
        };
        request.Headers.Add("Origin", origin ?? browser.BaseAddress!.GetLeftPart(UriPartial.Authority));
        return await browser.SendAsync(request, TestContext.Current.CancellationToken);
    }

    // The write token as the sign-in cookie, sent to the API: a browser signed in with it, made to post elsewhere.
    private static async Task<HttpResponseMessage> SendWithCookieAsync(RunningResultsServer server, HttpMethod method, string path, HttpContent? content,
        string? cookie = null)
    {
        using var client = new HttpClient(new HttpClientHandler { UseCookies = false }) { BaseAddress = server.Http.BaseAddress };
        using var request = new HttpRequestMessage(method, path) { Content = content };
        request.Headers.Add("Cookie", $"perfbudgets-read={cookie ?? server.Token}");
        return await client.SendAsync(request, TestContext.Current.CancellationToken);
    }
}
