using System.Runtime.InteropServices;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Net.Http.Headers;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Counts;

/// <summary>
/// The counted runs a project's CI stores for reuse, so that a pull request's gate reuses what main's CI counted
/// (<c>perfbudgets counts push</c> and <c>pull</c>): <c>PUT /api/projects/{project}/counts/{key}</c> stores the zip of
/// one entry of the gate's store (the write token; <c>application/zip</c>, at most
/// <see cref="ResultsServerOptions.MaxStoredCountBytes"/>); <c>GET /api/projects/{project}/counts</c> lists them, the
/// most recently used first, and <c>GET /api/projects/{project}/counts/{key}</c> answers one, with read access as the
/// other reads; <c>POST /api/projects/{project}/counts/used</c> (the write token; <c>{"keys": [...]}</c>) marks the
/// stored ones of those keys used, as a fetch does, for a CI that reuses them from its own cache. The key is the entry's: the SHA-256 of the run's inputs, 64 lowercase hex digits. The server never opens
/// an archive: the gate that reuses one checks every file it names against its own before it trusts it.
/// </summary>
internal static class StoredCountsEndpoints
{
    /// <summary>The media type of a stored count's archive.</summary>
    public const string ArchiveType = "application/zip";

    private const int KeyLength = 64;

    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapGet("/api/projects/{project}/counts", (HttpContext context, string project) => ResultsEndpoints.Refusing(() => ListAsync(context, project)));
        routes.MapGet("/api/projects/{project}/counts/{key}", (HttpContext context, string project, string key) => ResultsEndpoints.Refusing(() => GetAsync(context, project, key)));
        routes.MapPut("/api/projects/{project}/counts/{key}", (HttpContext context, string project, string key) => ResultsEndpoints.Refusing(() => PutAsync(context, project, key)));
        routes.MapPost("/api/projects/{project}/counts/used", (HttpContext context, string project) => ResultsEndpoints.Refusing(() => MarkUsedAsync(context, project)));
    }

    /// <summary>True for a request that stores a count: an upload, never queued behind readers.</summary>
    public static bool IsStore(HttpRequest request) =>
        HttpMethods.IsPut(request.Method) && request.Path.StartsWithSegments("/api/projects", StringComparison.Ordinal)
        && request.Path.Value!.Contains("/counts/", StringComparison.Ordinal);

    private static async Task<IResult> ListAsync(HttpContext context, string project)
    {
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        await ResultsEndpoints.AuthorizeReadAsync(context, storage, project);
        var entries = await storage.ListCountsAsync(project, context.RequestAborted);
        return Results.Json(new
        {
            project,
            counts = entries.Select(e => new { key = e.Key, bytes = e.Bytes, storedUtc = e.StoredUtc, usedUtc = e.UsedUtc }),
        });
    }

    private static async Task<IResult> GetAsync(HttpContext context, string project, string key)
    {
        CheckKey(key);
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        await ResultsEndpoints.AuthorizeReadAsync(context, storage, project);
        return await storage.GetCountAsync(project, key, context.RequestAborted) is { } archive
            ? Results.File(archive, ArchiveType)
            : throw new ServerInputException(StatusCodes.Status404NotFound, $"Project '{project}' has no stored count of key {key}.");
    }

    private static async Task<IResult> PutAsync(HttpContext context, string project, string key)
    {
        CheckKey(key);
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        var options = context.RequestServices.GetRequiredService<ResultsServerOptions>();
        await ResultsEndpoints.AuthorizeAsync(context, storage, project);
        CheckMediaType(context.Request, ArchiveType, $"A stored count is a zip: send Content-Type: {ArchiveType}.");

        var max = options.MaxStoredCountBytes;
        if (context.Request.ContentLength > max)
        {
            throw TooLarge(max);
        }

        // Kestrel's limit for every request is the results' upload limit; a stored count has its own.
        if (context.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } bodySize)
        {
            bodySize.MaxRequestBodySize = max;
        }

        using var room = await context.RequestServices.GetRequiredService<StoredCountUploads>().Gate
            .ReserveAsync(context.Request.ContentLength ?? max, options.UploadMemoryWait, context.RequestAborted);
        if (room is null)
        {
            context.Response.Headers.RetryAfter = "5";
            throw new ServerInputException(StatusCodes.Status503ServiceUnavailable,
                $"The server holds as many stored counts as it takes at once (MaxStoredCountBytes, {max} bytes); try again.");
        }

        var body = await ResultsEndpoints.ReadBodyAsync(context.Request, max, TooLarge, context.RequestAborted);
        // The body's buffer is its exact size when the Content-Length was true; else one copy.
        var archive = MemoryMarshal.TryGetArray(body, out var segment) && segment.Offset == 0 && segment.Count == segment.Array!.Length
            ? segment.Array
            : body.ToArray();
        if (archive.Length == 0)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest, "The body is empty: send the zip of the store's entry.");
        }

        var stored = await storage.PutCountAsync(project, key, archive, options.StoredCountsPerProject, options.StoredCountBytesPerProject,
            ResultsEndpoints.WriteTokenHash(context.Request), context.RequestAborted);
        var answer = new { project, key, bytes = archive.Length, stored };
        return stored
            ? Results.Created($"/api/projects/{Uri.EscapeDataString(project)}/counts/{key}", answer)
            : Results.Ok(answer);
    }

    private static async Task<IResult> MarkUsedAsync(HttpContext context, string project)
    {
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        var options = context.RequestServices.GetRequiredService<ResultsServerOptions>();
        await ResultsEndpoints.AuthorizeAsync(context, storage, project);
        CheckMediaType(context.Request, "application/json", """The keys to mark used are JSON: send Content-Type: application/json and {"keys": ["..."]}.""");

        // No more keys than a project keeps can be held; each key's quoted 64 digits and a separator, and some room.
        var maxBytes = 1_024L + (70L * options.StoredCountsPerProject);
        var body = await ResultsEndpoints.ReadBodyAsync(context.Request, maxBytes,
            max => new ServerInputException(StatusCodes.Status413PayloadTooLarge, $"At most {options.StoredCountsPerProject} keys (StoredCountsPerProject), {max} bytes, are marked used at once."),
            context.RequestAborted);
        var keys = ReadKeys(body).Distinct(StringComparer.Ordinal).ToList();
        if (keys.Count > options.StoredCountsPerProject)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest, $"{keys.Count} different keys: a project holds at most {options.StoredCountsPerProject} stored counts (StoredCountsPerProject).");
        }

        var marked = await storage.MarkCountsUsedAsync(project, keys, ResultsEndpoints.WriteTokenHash(context.Request), context.RequestAborted);
        return Results.Ok(new { project, marked });
    }

    // {"keys": ["<64 lowercase hex digits>", ...]}: anything else is a 400 naming what is wrong.
    private static List<string> ReadKeys(ReadOnlyMemory<byte> body)
    {
        try
        {
            using var document = JsonDocument.Parse(body);
            if (document.RootElement.ValueKind != JsonValueKind.Object || !document.RootElement.TryGetProperty("keys", out var keys) || keys.ValueKind != JsonValueKind.Array)
            {
                throw new ServerInputException(StatusCodes.Status400BadRequest, """Send {"keys": ["..."]}: an object whose "keys" is an array of stored counts' keys.""");
            }

            var list = new List<string>(keys.GetArrayLength());
            foreach (var key in keys.EnumerateArray())
            {
                var text = key.ValueKind == JsonValueKind.String ? key.GetString()! : string.Empty;
                CheckKey(text);
                list.Add(text);
            }

            return list;
        }
        catch (JsonException e)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest, $"The body is not JSON: {e.Message}", e);
        }
        catch (InvalidOperationException e)
        {
            // A string that escapes a lone surrogate is JSON, but no text.
            throw new ServerInputException(StatusCodes.Status400BadRequest, $"A key is not text: {e.Message}", e);
        }
    }

    // The body's media type, its parameters aside (a zip may say its name); another is a 415 saying what to send.
    private static void CheckMediaType(HttpRequest request, string mediaType, string refusal)
    {
        if (!MediaTypeHeaderValue.TryParse(request.ContentType, out var type) || !type.MediaType.Equals(mediaType, StringComparison.OrdinalIgnoreCase))
        {
            throw new ServerInputException(StatusCodes.Status415UnsupportedMediaType, refusal);
        }
    }

    // 64 lowercase hex digits, as the gate names its store's entries: anything else is not a key any gate asks for.
    private static void CheckKey(string key)
    {
        if (key.Length != KeyLength || !key.All(char.IsAsciiHexDigitLower))
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest, $"A stored count's key is {KeyLength} lowercase hex digits (the SHA-256 of its inputs).");
        }
    }

    private static ServerInputException TooLarge(long maxBytes) =>
        new(StatusCodes.Status413PayloadTooLarge, $"The stored count is larger than the server's limit of {maxBytes} bytes (MaxStoredCountBytes).");
}
