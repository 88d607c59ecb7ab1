namespace PerfBudgets.Load;

/// <summary>
/// Builds load steps from an <see cref="HttpClient"/>: one request each, reported with its status code, its body
/// sizes, and a failure text for a wrong status or body.
/// </summary>
/// <remarks>
/// Sizes are payload (body) bytes, as NBomber's <c>sizeBytes</c>: the request line and headers are the handler's
/// and are not seen here.
/// </remarks>
public static class HttpLoadStep
{
    /// <summary>A GET of <paramref name="path"/> that succeeds on a 2xx status and, when given, exactly <paramref name="expectedBody"/>.</summary>
    public static Func<LoadStepContext, CancellationToken, ValueTask<LoadStepOutcome>> Get(HttpClient client, string path, ReadOnlyMemory<byte>? expectedBody = null)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var expected = expectedBody;
        return (_, token) => SendAsync(client, () => new HttpRequestMessage(HttpMethod.Get, path), expected, token);
    }

    /// <summary>Sends the request <paramref name="createRequest"/> builds and checks its answer.</summary>
    public static async ValueTask<LoadStepOutcome> SendAsync(HttpClient client, Func<HttpRequestMessage> createRequest, ReadOnlyMemory<byte>? expectedBody, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(createRequest);
        using var request = createRequest();
        var sent = request.Content?.Headers.ContentLength ?? 0;
        using var response = await client.SendAsync(request, HttpCompletionOption.ResponseContentRead, cancellationToken);
        var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        var status = (int)response.StatusCode;
        if (!response.IsSuccessStatusCode)
        {
            return LoadStepOutcome.Failure($"status {status}", status, sent, body.Length);
        }

        return expectedBody is { } expected && !body.AsSpan().SequenceEqual(expected.Span)
            ? LoadStepOutcome.Failure($"status {status} with an unexpected body ({body.Length} bytes)", status, sent, body.Length)
            : LoadStepOutcome.Success(status, sent, body.Length);
    }
}
