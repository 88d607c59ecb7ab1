using System.Globalization;
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
    /// <summary>
    /// How many times an upload is sent before its failure is reported: a lost connection, a timeout or a 502, 503 or
    /// 504 is sent again with the same <c>Idempotency-Key</c>, so the server stores the run once however many arrive.
    /// </summary>
    public const int UploadAttempts = 3;

    private readonly HttpClient _http;
    private readonly TimeSpan _retryDelay;

    public ResultsServerClient(Uri server)
        : this(server, new SocketsHttpHandler(), TimeSpan.FromSeconds(2))
    {
    }

    /// <summary>A client over <paramref name="handler"/> (tests lose answers with one) waiting <paramref name="retryDelay"/> times the attempt before a retry.</summary>
    internal ResultsServerClient(Uri server, HttpMessageHandler handler, TimeSpan retryDelay)
    {
        _http = new HttpClient(handler) { BaseAddress = server, Timeout = TimeSpan.FromSeconds(100) };
        _retryDelay = retryDelay;
    }

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
        var json = body.ToJsonString();
        var key = run.IdempotencyKey ?? Guid.NewGuid().ToString("D");
        using var response = await SendAgainWhenLostAsync(() =>
        {
            var request = new HttpRequestMessage(HttpMethod.Post, RunsPath(project))
            {
                Content = new StringContent(json, Encoding.UTF8, "application/json"),
            };
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
            request.Headers.Add("Idempotency-Key", key);
            // A refusal (wrong token, too large) then comes before the body is sent, not as a connection reset during it.
            request.Headers.ExpectContinue = true;
            return request;
        }, cancellationToken);
        var answer = await response.Content.ReadAsStringAsync(cancellationToken);
        return response.IsSuccessStatusCode ? answer : throw Refused(response.StatusCode, answer);
    }

    // Sends a request that the server answers the same however often it arrives (a read; an upload with its
    // Idempotency-Key; a stored count, by its key) up to UploadAttempts times while no answer comes or the answer is a
    // 502, 503 or 504.
    private async Task<HttpResponseMessage> SendAgainWhenLostAsync(Func<HttpRequestMessage> request, CancellationToken cancellationToken)
    {
        for (var attempt = 1; ; attempt++)
        {
            using var sent = request();
            HttpResponseMessage response;
            try
            {
                response = await _http.SendAsync(sent, cancellationToken);
            }
            catch (Exception e) when (attempt < UploadAttempts && IsLostAnswer(e, cancellationToken))
            {
                await Task.Delay(_retryDelay * attempt, cancellationToken);
                continue;
            }
            catch (Exception e) when (IsLostAnswer(e, cancellationToken))
            {
                throw new ToolInputException($"The results server {_http.BaseAddress} cannot be reached ({UploadAttempts} attempts): {e.Message}", e);
            }

            if (attempt < UploadAttempts && response.StatusCode is HttpStatusCode.BadGateway or HttpStatusCode.ServiceUnavailable or HttpStatusCode.GatewayTimeout)
            {
                response.Dispose();
                await Task.Delay(_retryDelay * attempt, cancellationToken);
                continue;
            }

            return response;
        }
    }

    // No answer came: the connection failed or dropped, or HttpClient's timeout (not the caller's cancellation) ended it.
    private static bool IsLostAnswer(Exception exception, CancellationToken cancellationToken) =>
        exception is HttpRequestException || (exception is TaskCanceledException && !cancellationToken.IsCancellationRequested);

    /// <summary>
    /// True when <paramref name="exception"/> is this client's "cannot be reached": no answer came (the server is down
    /// or unreachable, or the client's timeout, not the caller's cancellation, ended every attempt), as opposed to a
    /// refusal the server answered.
    /// </summary>
    internal static bool CouldNotReach(Exception exception, CancellationToken cancellationToken) =>
        exception is ToolInputException { InnerException: { } lost } && IsLostAnswer(lost, cancellationToken);

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

    /// <summary>
    /// The run of <paramref name="commit"/>, or on a miss the run of the nearest ancestor the server names; neither
    /// when the server knows no ancestor with a run. Other refusals throw.
    /// </summary>
    public async Task<BaselineAnswer> BaselineOrNearestAsync(string project, string commit, IReadOnlyList<string> parents, string? token, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(parents);
        var query = $"{RunsPath(project)}?commit={Uri.EscapeDataString(commit)}";
        if (parents.Count > 0)
        {
            query += "&parents=" + Uri.EscapeDataString(string.Join(',', parents));
        }

        using var request = Get(query, token);
        using var response = await SendAsync(request, cancellationToken);
        var answer = await response.Content.ReadAsStringAsync(cancellationToken);
        if (response.IsSuccessStatusCode)
        {
            return new BaselineAnswer(commit, commit, answer);
        }

        if (response.StatusCode != HttpStatusCode.NotFound || NearestAncestor(answer) is not { } nearest)
        {
            return response.StatusCode == HttpStatusCode.NotFound && IsMissingRun(answer)
                ? new BaselineAnswer(commit, null, null)
                : throw Refused(response.StatusCode, answer);
        }

        return new BaselineAnswer(commit, nearest, await BaselineAsync(project, nearest, [], cancellationToken, token));
    }

    /// <summary>The change points of the project's timed budgets on <paramref name="branch"/> within its last <paramref name="last"/> runs (all without).</summary>
    /// <remarks><paramref name="minRuns"/> and <paramref name="minShift"/> override the server's change-point settings when given.</remarks>
    public async Task<IReadOnlyList<ReportedChange>> ChangesAsync(string project, string branch, int? last, string? token, CancellationToken cancellationToken,
        int? minRuns = null, double? minShift = null)
    {
        var query = $"api/projects/{Uri.EscapeDataString(project)}/changes?branch={Uri.EscapeDataString(branch)}";
        if (last is { } n)
        {
            query += string.Create(CultureInfo.InvariantCulture, $"&last={n}");
        }

        if (minRuns is { } runs)
        {
            query += string.Create(CultureInfo.InvariantCulture, $"&minRuns={runs}");
        }

        if (minShift is { } shift)
        {
            query += string.Create(CultureInfo.InvariantCulture, $"&minShift={shift}");
        }

        using var request = Get(query, token);
        using var response = await SendAsync(request, cancellationToken);
        var answer = await response.Content.ReadAsStringAsync(cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw Refused(response.StatusCode, answer);
        }

        return ReadAnswer(answer, "list of changes", json => json["changes"]!.AsArray()
            .Select(c => new ReportedChange(
                c!["budget"]!.GetValue<string>(), c["kind"]!.GetValue<string>(), c["unit"]!.GetValue<string>(),
                c["commit"]!.GetValue<string>(), c["medianBefore"]!.GetValue<double>(), c["medianAfter"]!.GetValue<double>(),
                c["relativeShift"]!.GetValue<double>(), c["runsAfter"]!.GetValue<int>(), c["runtimeChanged"]!.GetValue<bool>()))
            .ToList());
    }

    /// <summary>
    /// The keys and sizes of the counted runs <paramref name="project"/> stores for reuse, the most recently used first;
    /// this and the other calls of the store are sent again when no answer comes, as an upload is.
    /// </summary>
    public async Task<IReadOnlyList<(string Key, long Bytes)>> StoredCountsAsync(string project, string? token, CancellationToken cancellationToken)
    {
        using var response = await SendAgainWhenLostAsync(() => Get(CountsPath(project), token), cancellationToken);
        var answer = await response.Content.ReadAsStringAsync(cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw Refused(response.StatusCode, answer);
        }

        return ReadAnswer(answer, "list of stored counts", json => json["counts"]!.AsArray()
            .Select(c => (c!["key"]!.GetValue<string>(), c["bytes"]!.GetValue<long>()))
            .ToList());
    }

    /// <summary>The archive of <paramref name="project"/>'s stored count <paramref name="key"/>.</summary>
    public async Task<byte[]> StoredCountAsync(string project, string key, string? token, CancellationToken cancellationToken)
    {
        using var response = await SendAgainWhenLostAsync(() => Get($"{CountsPath(project)}/{Uri.EscapeDataString(key)}", token), cancellationToken);
        return response.IsSuccessStatusCode
            ? await response.Content.ReadAsByteArrayAsync(cancellationToken)
            : throw Refused(response.StatusCode, await response.Content.ReadAsStringAsync(cancellationToken));
    }

    /// <summary>
    /// Stores <paramref name="archive"/> as <paramref name="project"/>'s count <paramref name="key"/>; false when the
    /// server had it already. Sent again, as an upload is, when no answer comes: a key is stored once.
    /// </summary>
    public async Task<bool> StoreCountAsync(string project, string key, byte[] archive, string token, CancellationToken cancellationToken)
    {
        using var response = await SendAgainWhenLostAsync(() =>
        {
            var request = new HttpRequestMessage(HttpMethod.Put, $"{CountsPath(project)}/{Uri.EscapeDataString(key)}")
            {
                Content = new ByteArrayContent(archive) { Headers = { ContentType = new MediaTypeHeaderValue("application/zip") } },
            };
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
            request.Headers.ExpectContinue = true;
            return request;
        }, cancellationToken);
        return response.IsSuccessStatusCode
            ? response.StatusCode == HttpStatusCode.Created
            : throw Refused(response.StatusCode, await response.Content.ReadAsStringAsync(cancellationToken));
    }

    /// <summary>
    /// Marks <paramref name="project"/>'s stored counts of <paramref name="keys"/> used (the write token), as a fetch
    /// does; answers how many the server held. Marking twice is harmless, so a lost answer is asked again.
    /// </summary>
    public async Task<int> MarkCountsUsedAsync(string project, IReadOnlyList<string> keys, string token, CancellationToken cancellationToken)
    {
        var body = new JsonObject { ["keys"] = new JsonArray([.. keys.Select(k => JsonValue.Create(k))]) }.ToJsonString();
        using var response = await SendAgainWhenLostAsync(() =>
        {
            var request = new HttpRequestMessage(HttpMethod.Post, $"{CountsPath(project)}/used")
            {
                Content = new StringContent(body, System.Text.Encoding.UTF8, "application/json"),
            };
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
            return request;
        }, cancellationToken);
        var answer = await response.Content.ReadAsStringAsync(cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw Refused(response.StatusCode, answer);
        }

        return ReadAnswer(answer, "answer to marking stored counts used", json => json["marked"]!.GetValue<int>());
    }

    public void Dispose() => _http.Dispose();

    // A JSON answer read by `read`; one that is not JSON or lacks what `read` takes is bad input naming `what`.
    private static T ReadAnswer<T>(string answer, string what, Func<JsonNode, T> read)
    {
        try
        {
            return read(JsonNode.Parse(answer)!);
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or NullReferenceException or FormatException)
        {
            throw new ToolInputException($"The results server's {what} cannot be read: {e.Message}", e);
        }
    }

    private static HttpRequestMessage Get(string query, string? token)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, query);
        if (token is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        }

        return request;
    }

    private static string? NearestAncestor(string answer)
    {
        try
        {
            return JsonNode.Parse(answer)?["nearestAncestor"]?.GetValue<string>();
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException)
        {
            return null;
        }
    }

    // A 404 for a commit without a run carries nearestAncestor (null when none is known); one for an unknown project does not.
    private static bool IsMissingRun(string answer)
    {
        try
        {
            return JsonNode.Parse(answer) is JsonObject problem && problem.ContainsKey("nearestAncestor");
        }
        catch (JsonException)
        {
            return false;
        }
    }

    private static string RunsPath(string project) => $"api/projects/{Uri.EscapeDataString(project)}/runs";

    private static string CountsPath(string project) => $"api/projects/{Uri.EscapeDataString(project)}/counts";

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
