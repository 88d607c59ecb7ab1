using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using PerfBudgets.Server.Storage;
using PerfBudgets.Server.Tokens;
using PerfBudgets.Server.Upload;

namespace PerfBudgets.Server;

/// <summary>
/// The server's API. <c>POST /api/projects/{project}/runs</c> stores a run (project token required);
/// <c>GET /api/projects/{project}/runs?commit=SHA[&amp;parents=P1,P2]</c> answers that commit's <c>results.json</c>, or
/// 404 naming the nearest ancestor that has one; <c>GET /api/projects/{project}/budgets?branch=main</c> answers every
/// budget of the branch's latest run and <c>GET /api/projects/{project}/budgets/{budget}/series[?branch=main]</c> one
/// budget's figure over runs. Every refusal is a JSON problem body (RFC 9457) and stores nothing.
/// </summary>
internal static class ResultsEndpoints
{
    // Long enough for any key scheme a client may use (a GUID is 36), short enough to index.
    private const int MaxIdempotencyKeyLength = 200;

    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapPost("/api/projects/{project}/runs", (HttpContext context, string project) => Refusing(() => UploadAsync(context, project)));
        routes.MapGet("/api/projects/{project}/runs", (HttpContext context, string project) => Refusing(() => BaselineAsync(context, project)));
        routes.MapGet("/api/projects/{project}/budgets", (HttpContext context, string project) => Refusing(() => LatestAsync(context, project)));
        routes.MapGet("/api/projects/{project}/budgets/{budget}/series", (HttpContext context, string project, string budget) =>
            Refusing(() => SeriesAsync(context, project, BudgetName(budget))));
    }

    internal static async Task<IResult> Refusing(Func<Task<IResult>> handle)
    {
        try
        {
            return await handle();
        }
        catch (ServerInputException e)
        {
            return Results.Problem(statusCode: e.StatusCode, detail: e.Message);
        }
        catch (BadHttpRequestException e)
        {
            // Kestrel's own refusals while the body is read: over MaxRequestBodySize (413) or cut short (400).
            return Results.Problem(statusCode: e.StatusCode, detail: e.Message);
        }
    }

    private static async Task<IResult> UploadAsync(HttpContext context, string project)
    {
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        var options = context.RequestServices.GetRequiredService<ResultsServerOptions>();
        await AuthorizeAsync(context, storage, project);
        if (!context.Request.HasJsonContentType())
        {
            throw new ServerInputException(StatusCodes.Status415UnsupportedMediaType, "An upload is JSON: send Content-Type: application/json.");
        }

        if (context.Request.ContentLength > options.MaxUploadBytes)
        {
            throw TooLarge(options.MaxUploadBytes);
        }

        // Held until the run is written: the body, its parsed document and the results' text are all alive till then.
        using var room = await context.RequestServices.GetRequiredService<UploadMemoryGate>()
            .ReserveAsync(context.Request.ContentLength ?? options.MaxUploadBytes, options.UploadMemoryWait, context.RequestAborted);
        if (room is null)
        {
            context.Response.Headers.RetryAfter = "5";
            throw new ServerInputException(StatusCodes.Status503ServiceUnavailable,
                $"The server holds as many uploads as it takes at once (MaxUploadBytesInFlight, {options.MaxUploadBytesInFlight} bytes); try again.");
        }

        var body = await ReadBodyAsync(context.Request, options.MaxUploadBytes, context.RequestAborted);
        // The token is checked again as the run is written (in its transaction), not only before the body arrived: a
        // token revoked while a slow body was arriving stored its run anyway.
        var run = UploadParser.Parse(body, options) with
        {
            IdempotencyKey = IdempotencyKey(context.Request),
            WriteTokenSha256 = WriteTokenHash(context.Request),
        };
        var stored = await storage.AddRunAsync(project, run, context.RequestAborted);
        var location = $"/api/projects/{Uri.EscapeDataString(project)}/runs?commit={Uri.EscapeDataString(run.Commit)}";
        var answer = new { runId = stored.RunId, project, commit = run.Commit, results = run.Results.Count, replayed = stored.Replayed };
        return stored.Replayed ? Results.Ok(answer) : Results.Created(location, answer);
    }

    // The Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header): any visible ASCII up to 200 characters;
    // the tool sends a new GUID per upload and the same one on each retry of it.
    private static string? IdempotencyKey(HttpRequest request)
    {
        if (!request.Headers.TryGetValue("Idempotency-Key", out var values))
        {
            return null;
        }

        var key = values.ToString().Trim().Trim('"');
        return key.Length is > 0 and <= MaxIdempotencyKeyLength && key.All(c => c is > ' ' and <= '~')
            ? key
            : throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"Idempotency-Key must be 1 to {MaxIdempotencyKeyLength} visible ASCII characters, such as a GUID.");
    }

    private static async Task<IResult> BaselineAsync(HttpContext context, string project)
    {
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        var commit = context.Request.Query["commit"].ToString();
        if (string.IsNullOrWhiteSpace(commit))
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest, "Name the commit: ?commit=SHA.");
        }

        await AuthorizeReadAsync(context, storage, project);
        var options = context.RequestServices.GetRequiredService<ResultsServerOptions>();
        if (await storage.RunResultsAsync(project, commit, context.RequestAborted) is { } results)
        {
            return Results.Text(await HoldsTokenAsync(context, storage, project, options)
                ? results
                : AnonymousDetails.Cut(results, options.MaxAnonymousDetailLength), "application/json");
        }

        var parents = context.Request.Query["parents"].ToString()
            .Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (parents.Length > options.MaxParentsPerCommit)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"?parents= names {parents.Length} commits; this server takes at most {options.MaxParentsPerCommit} (MaxParentsPerCommit).");
        }

        var nearest = await storage.NearestAncestorWithRunAsync(project, commit, parents, AncestorSearch.From(options), context.RequestAborted);
        var message = nearest switch
        {
            { Commit: { } found } => $"Project '{project}' has no run of commit {commit}; the nearest ancestor with a run is {found}.",
            { StoppedBy: { } bound } =>
                $"Project '{project}' has no run of commit {commit}, and none of an ancestor found before the search reached its bound ({bound}); a farther one may have a run.",
            _ => $"Project '{project}' has no run of commit {commit}, and none of an ancestor it knows of (pass ?parents= to name the commit's parents).",
        };
        return Results.Problem(statusCode: StatusCodes.Status404NotFound, detail: message,
            extensions: new Dictionary<string, object?> { ["nearestAncestor"] = nearest.Commit });
    }

    // Every budget of the project's latest run on ?branch= (main when absent), by name.
    private static async Task<IResult> LatestAsync(HttpContext context, string project)
    {
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        await AuthorizeReadAsync(context, storage, project);
        var branch = context.Request.Query["branch"].ToString() is { Length: > 0 } named ? named : "main";
        return Results.Json(await storage.GetLatestAsync(project, branch, context.RequestAborted));
    }

    // One budget's figure in every run that has it, oldest first; on ?branch= only when given, else on every branch.
    private static async Task<IResult> SeriesAsync(HttpContext context, string project, string budget)
    {
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        await AuthorizeReadAsync(context, storage, project);
        var branch = context.Request.Query["branch"].ToString() is { Length: > 0 } named ? named : null;
        var series = await storage.GetSeriesAsync(project, budget, branch, context.RequestAborted);
        return series.Count > 0
            ? Results.Json(series)
            : throw new ServerInputException(StatusCodes.Status404NotFound,
                $"Project '{project}' has no run with budget '{budget}'{(branch is null ? "" : $" on branch '{branch}'")}.");
    }

    /// <summary>
    /// The budget named by a route segment. Kestrel decodes every escape in a path but <c>%2F</c>, so that a segment
    /// cannot become two; a budget whose name holds a '/' arrives with it still escaped.
    /// </summary>
    internal static string BudgetName(string segment) => segment.Replace("%2F", "/", StringComparison.OrdinalIgnoreCase);

    // A read of an unknown project is 404. With ReadTokenRequired, a read needs the project's read-only or write token:
    // as a bearer token, or (fromCookie: the dashboard's pages) as the cookie its sign-in page set.
    internal static async Task AuthorizeReadAsync(HttpContext context, IResultsStorage storage, string project, bool fromCookie = false)
    {
        if (context.RequestServices.GetRequiredService<ResultsServerOptions>().ReadTokenRequired)
        {
            // What only a token reads is kept by no cache: not the browser's (a shared machine's back button), not a proxy's.
            context.Response.Headers.CacheControl = "no-store";
            await AuthorizeAsync(context, storage, project, reading: true, fromCookie);
            return;
        }

        if (await storage.TokenHashAsync(project, context.RequestAborted) is null)
        {
            throw new ServerInputException(StatusCodes.Status404NotFound, $"There is no project '{project}'.");
        }
    }

    // 401 without a token, 403 with a wrong one; an unknown project answers 403 as a wrong token does, so that a writer
    // without a token cannot list projects. Writing takes only a bearer token, never the sign-in cookie, so that another
    // site cannot make a signed-in browser upload. A page (fromCookie) also takes the sign-in's session, checked against
    // the project's current read-only token: an expired or replaced one is 401, for the page to offer the sign-in again.
    internal static async Task AuthorizeAsync(HttpContext context, IResultsStorage storage, string project, bool reading = false, bool fromCookie = false)
    {
        var presented = BearerToken(context.Request);
        if (presented is null && fromCookie && Dashboard.SignInEndpoints.CookieSession(context.Request) is { } session)
        {
            if (await storage.ReadTokenHashAsync(project, context.RequestAborted) is { } readHash
                && Tokens.DashboardSession.IsValid(session, project, readHash, DateTimeOffset.UtcNow))
            {
                return;
            }

            throw new ServerInputException(StatusCodes.Status401Unauthorized, "The sign-in has expired, or the project's read-only token has been replaced: sign in again.");
        }

        if (presented is null)
        {
            context.Response.Headers.WWWAuthenticate = "Bearer";
            throw new ServerInputException(StatusCodes.Status401Unauthorized, "This needs the project's token: Authorization: Bearer TOKEN.");
        }

        if (!await IsProjectTokenAsync(storage, project, presented, reading, context.RequestAborted))
        {
            throw new ServerInputException(StatusCodes.Status403Forbidden,
                reading ? $"The token is not one of project '{project}''s tokens." : $"The token is not project '{project}''s write token.");
        }
    }

    // True when the request holds one of the project's tokens: always where reads need one (it was checked), else
    // when a bearer token it sends is one.
    internal static async Task<bool> HoldsTokenAsync(HttpContext context, IResultsStorage storage, string project, ResultsServerOptions options) =>
        options.ReadTokenRequired
        || (BearerToken(context.Request) is { } presented && await IsProjectTokenAsync(storage, project, presented, reading: true, context.RequestAborted));

    // Reading takes the project's read-only token or its write token; writing only the write token.
    internal static async Task<bool> IsProjectTokenAsync(IResultsStorage storage, string project, string presented, bool reading, CancellationToken cancellationToken)
    {
        if (await storage.TokenHashAsync(project, cancellationToken) is { } hash && ProjectToken.Matches(presented, hash))
        {
            return true;
        }

        return reading && await storage.ReadTokenHashAsync(project, cancellationToken) is { } readHash && ProjectToken.Matches(presented, readHash);
    }

    /// <summary>The SHA-256 of the bearer token an authorized write came with, for the write to check again as it stores.</summary>
    internal static byte[] WriteTokenHash(HttpRequest request) => ProjectToken.Hash(BearerToken(request)!);

    private static string? BearerToken(HttpRequest request)
    {
        var header = request.Headers.Authorization.ToString();
        const string Scheme = "Bearer ";
        return header.StartsWith(Scheme, StringComparison.OrdinalIgnoreCase) && header[Scheme.Length..].Trim() is { Length: > 0 } token ? token : null;
    }

    // Read whole before parsing, bounded: a body without Content-Length is counted as it arrives.
    private static Task<ReadOnlyMemory<byte>> ReadBodyAsync(HttpRequest request, long maxBytes, CancellationToken cancellationToken) =>
        ReadBodyAsync(request, maxBytes, TooLarge, cancellationToken);

    /// <summary>
    /// A request's body, read whole and bounded to <paramref name="maxBytes"/> (past it, <paramref name="tooLarge"/>'s
    /// exception): a body without Content-Length is counted as it arrives.
    /// </summary>
    internal static async Task<ReadOnlyMemory<byte>> ReadBodyAsync(HttpRequest request, long maxBytes, Func<long, ServerInputException> tooLarge,
        CancellationToken cancellationToken)
    {
        if (request.ContentLength > maxBytes)
        {
            throw tooLarge(maxBytes);
        }

        // Sized to the body when it is known: a stream that doubles as it grows holds up to twice the body.
        using var buffer = new MemoryStream((int)Math.Min(request.ContentLength ?? 0, maxBytes));
        var chunk = new byte[81920];
        int read;
        while ((read = await request.Body.ReadAsync(chunk, cancellationToken)) > 0)
        {
            if (buffer.Length + read > maxBytes)
            {
                throw tooLarge(maxBytes);
            }

            buffer.Write(chunk, 0, read);
        }

        return buffer.GetBuffer().AsMemory(0, (int)buffer.Length);
    }

    private static ServerInputException TooLarge(long maxBytes) =>
        new(StatusCodes.Status413PayloadTooLarge, $"The upload is larger than the server's limit of {maxBytes} bytes.");
}
