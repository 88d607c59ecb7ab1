using System.Net;
using System.Net.Http.Headers;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary>The dashboard's pages over HTTP: what came from uploads is encoded, misses and refusals are pages too.</summary>
public sealed class DashboardPageTests
{
    private const string Hostile = "<img src=x onerror=alert(1)>";

    [Fact]
    public async Task Everything_from_an_upload_is_html_encoded_on_both_pages()
    {
        await using var server = await RunningResultsServer.StartAsync(commitUrlTemplate: "https://git.example/commit/{commit}");
        var body = RunningResultsServer.UploadBody(Hostile, resultsJson: RunningResultsServer.ResultsJson(budgets: 1));
        body["runtime"] = "\"><script>alert(2)</script>";
        body["results"]!["results"]![0]!["budget"] = "B<i>1</i>";
        body["results"]!["results"]![0]!["unit"] = "B&op";
        (await server.UploadAsync(body.ToJsonString())).Dispose();

        using var project = await server.Http.GetAsync($"projects/{RunningResultsServer.Project}", TestContext.Current.CancellationToken);
        var projectHtml = await project.Content.ReadAsStringAsync(TestContext.Current.CancellationToken);
        var budgetHtml = await server.Http.GetStringAsync($"projects/{RunningResultsServer.Project}/budgets/{Uri.EscapeDataString("B<i>1</i>")}",
            TestContext.Current.CancellationToken);

        project.Content.Headers.ContentType!.MediaType.Should().Be("text/html");
        project.Headers.GetValues("Content-Security-Policy").Single().Should().StartWith("default-src 'none'");
        foreach (var html in new[] { projectHtml, budgetHtml })
        {
            html.Should().NotContain("<img").And.NotContain("<script").And.NotContain("<i>1</i>").And.Contain("&lt;img");
        }

        projectHtml.Should().Contain("B&amp;op");
        // The commit in a link is escaped as a URL, then encoded as an attribute.
        budgetHtml.Should().Contain("href=\"https://git.example/commit/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E\"");
    }

    [Fact]
    public async Task An_unknown_project_or_budget_is_a_404_page_and_a_read_token_server_refuses_without_the_token()
    {
        await using var server = await RunningResultsServer.StartAsync();
        await using var locked = await RunningResultsServer.StartAsync(readTokenRequired: true);
        await ResultsServerReadApiTests.UploadAsync(server, "a1", measured: 120);
        await ResultsServerReadApiTests.UploadAsync(locked, "a1", measured: 120);

        using var project = await server.Http.GetAsync("projects/nope", TestContext.Current.CancellationToken);
        using var budget = await server.Http.GetAsync($"projects/{RunningResultsServer.Project}/budgets/Nope", TestContext.Current.CancellationToken);
        using var anonymous = await locked.Http.GetAsync($"projects/{RunningResultsServer.Project}", TestContext.Current.CancellationToken);
        using var request = new HttpRequestMessage(HttpMethod.Get, $"projects/{RunningResultsServer.Project}")
        {
            Headers = { Authorization = new AuthenticationHeaderValue("Bearer", locked.Token) },
        };
        using var authorized = await locked.Http.SendAsync(request, TestContext.Current.CancellationToken);

        project.StatusCode.Should().Be(HttpStatusCode.NotFound);
        (await project.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().Contain("There is no project &#x27;nope&#x27;");
        budget.StatusCode.Should().Be(HttpStatusCode.NotFound);
        anonymous.StatusCode.Should().Be(HttpStatusCode.Unauthorized);
        authorized.StatusCode.Should().Be(HttpStatusCode.OK);
        (await authorized.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().Contain("Test.Budget0.BytesPerOp");
    }

    [Fact]
    public async Task A_timed_budgets_page_marks_the_commit_where_its_series_shifted()
    {
        await using var server = await RunningResultsServer.StartAsync(budgetsJson: Changes.TimedRuns.BudgetsJson);
        double[] p99 = [12, 12.2, 11.9, 12.1, 12, 11.8, 15, 15.2, 14.9, 15.1, 15, 14.8];
        for (var i = 0; i < p99.Length; i++)
        {
            var body = RunningResultsServer.UploadBody($"c{i}", resultsJson: RunningResultsServer.ResultsJson(budgets: 1, measured: p99[i]));
            var figure = body["results"]!["results"]![0]!;
            figure["budget"] = "Load.Api.P99Ms";
            figure["kind"] = "p99-ms-max";
            figure["unit"] = "ms";
            figure["limit"] = 50;
            using var response = await server.UploadAsync(body.ToJsonString());
            response.StatusCode.Should().Be(HttpStatusCode.Created);
        }

        var html = await server.Http.GetStringAsync($"projects/{RunningResultsServer.Project}/budgets/Load.Api.P99Ms", TestContext.Current.CancellationToken);

        html.Should().Contain("<h2>Change points (1)</h2>");
        html.Should().Contain("<line class=\"change-point\"").And.Contain("<title>change point at c6</title>");
        html.Should().MatchRegex("<li class=\"change-point\"><code[^>]*>c6</code>: median 12 to 15 ms \\(\\+25%\\)</li>");
    }

    [Fact]
    public async Task The_index_lists_every_project_with_its_runs_unless_reading_needs_a_token()
    {
        await using var server = await RunningResultsServer.StartAsync();
        await using var locked = await RunningResultsServer.StartAsync(readTokenRequired: true);
        await server.Server.Storage.CreateProjectAsync("a&b", [1], TestContext.Current.CancellationToken);
        await ResultsServerReadApiTests.UploadAsync(server, "a1", measured: 120);
        await ResultsServerReadApiTests.UploadAsync(server, "a2", measured: 121);

        var index = await server.Http.GetStringAsync("/", TestContext.Current.CancellationToken);
        using var refused = await locked.Http.GetAsync("projects", TestContext.Current.CancellationToken);

        index.Should().MatchRegex("<tr class=\"project\"><td><a href=\"/projects/a%26b\">a&amp;b</a></td><td class=\"number\">0</td><td>–</td></tr>");
        index.Should().MatchRegex($"<tr class=\"project\"><td><a href=\"/projects/{RunningResultsServer.Project}\">{RunningResultsServer.Project}</a></td><td class=\"number\">2</td><td>20");
        refused.StatusCode.Should().Be(HttpStatusCode.Forbidden);
        (await refused.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().NotContain(RunningResultsServer.Project + "<");
    }
}
