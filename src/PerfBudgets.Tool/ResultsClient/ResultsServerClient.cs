using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace PerfBudgets.Tool.ResultsClient;

/// <summary>
/// The tool's side of the results server's API (<c>perfbudgets upload</c>, <c>perfbudgets baseline</c>): a refusal or
/// an unreachable server becomes a <see cref="ToolInputException"/> carrying the server's own reason.
/// </summary>
internal sealed class ResultsServerClient : IDisposable
{
    private readonly HttpClient _http;

    public ResultsServerClient(Uri server) =>
        _http = new HttpClient { BaseAddress = server, Timeout = TimeSpan.FromSeconds(100) };

    /// <summary>Uploads <paramref name="resultsJson"/> (a run's results.json) with what it ran on; returns the server's answer.</summary>
    public async Task<string> UploadAsync(string project, string token, RunDescription run, string resultsJson, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(run);
        JsonNode? results;
        try
        {
            results = JsonNode.Parse(resultsJson);
        }
        catch (JsonException e)
        {
            throw new ToolInputException($"The results file is not JSON: {e.Message}", e);
        }

        var body = new JsonObject
        {
            ["commit"] = run.Commit,
            ["branch"] = run.Branch,
            ["parents"] = new JsonArray(run.Parents.Select(p => (JsonNode?)JsonValue.Create(p)).ToArray()),
            ["runtime"] = run.Runtime,
            ["valgrindVersion"] = run.ValgrindVersion,
            ["machine"] = run.Machine,
            ["results"] = results,
            ["ancestry"] = new JsonArray(run.Ancestry.Select(a => (JsonNode?)new JsonObject
            {
                ["commit"] = a.Commit,
                ["parents"] = new JsonArray(a.Parents.Select(p => (JsonNode?)JsonValue.Create(p)).ToArray()),
            }).ToArray()),
        };
        using var request = new HttpRequestMessage(HttpMethod.Post, RunsPath(project))
        {
            Content = new StringContent(body.ToJsonString(), Encoding.UTF8, "application/json"),
        };
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        // A refusal (wrong token, too large) then comes before the body is sent, not as a connection reset during it.
        request.Headers.ExpectContinue = true;
        using var response = await SendAsync(request, cancellationToken);
        var answer = await response.Content.ReadAsStringAsync(cancellationToken);
        return response.IsSuccessStatusCode ? answer : throw Refused(response.StatusCode, answer);
    }

    /// <summary>The results.json the server holds for <paramref name="commit"/>; a miss throws with the nearest ancestor it names.</summary>
    public async Task<string> BaselineAsync(string project, string commit, IReadOnlyList<string> parents, CancellationToken cancellationToken, string? token = null)
    {
        ArgumentNullException.ThrowIfNull(parents);
        var query = $"{RunsPath(project)}?commit={Uri.EscapeDataString(commit)}";
        if (parents.Count > 0)
        {
            query += "&parents=" + Uri.EscapeDataString(string.Join(',', parents));
        }

        using var request = new HttpRequestMessage(HttpMethod.Get, query);
        if (token is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        }

        using var response = await SendAsync(request, cancellationToken);
        var answer = await response.Content.ReadAsStringAsync(cancellationToken);
        return response.IsSuccessStatusCode ? answer : throw Refused(response.StatusCode, answer);
    }

    public void Dispose() => _http.Dispose();

    private static string RunsPath(string project) => $"api/projects/{Uri.EscapeDataString(project)}/runs";

    private async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        try
        {
            return await _http.SendAsync(request, cancellationToken);
        }
        catch (HttpRequestException e)
        {
            throw new ToolInputException($"The results server {_http.BaseAddress} cannot be reached: {e.Message}", e);
        }
    }

    // The server's problem body carries the reason in "detail"; anything else is quoted as it came.
    private static ToolInputException Refused(HttpStatusCode status, string answer)
    {
        string? detail = null;
        try
        {
            detail = JsonNode.Parse(answer)?["detail"]?.GetValue<string>();
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException)
        {
        }

        return new ToolInputException($"The results server answered {(int)status} {status}: {detail ?? answer}");
    }
}
