using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using PerfBudgets.Server.Storage;
using PerfBudgets.Server.Tokens;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// How a browser reads a server started with <c>--read-token-required</c>: a browser sends no <c>Authorization</c>
/// header, so <c>GET /projects/{project}/sign-in</c> asks for the project's read-only token and <c>POST</c> checks it
/// and sets a cookie for that project's pages alone holding a session derived from it (<see cref="Tokens.DashboardSession"/>),
/// never the token. The write token is refused here: the token that uploads never sits in a browser. The API stays
/// bearer-only.
/// </summary>
/// <remarks>
/// The cookie is <c>HttpOnly</c> (no script reads it; the pages have none anyway), <c>SameSite=Strict</c> (another site's
/// links and forms do not carry it), <c>Secure</c> behind HTTPS, scoped to <c>/projects/{project}</c> and gone with the
/// browser session. It is only ever taken for reading a dashboard page: an upload takes a bearer token alone. A sign-in
/// posted from another origin is refused, and the page it returns to must be one of the project's own.
/// </remarks>
internal static class SignInEndpoints
{
    /// <summary>The cookie that holds the session, one per project by its path.</summary>
    public const string CookieName = "perfbudgets-read";

    /// <summary>The sign-in page's policy: the dashboard's, but its one form may post back to this server.</summary>
    public const string ContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapGet("/projects/{project}/sign-in", (HttpContext context, string project) =>
        {
            var back = ReturnPath(project, context.Request.Query["return"].ToString());
            return ReadingIsPublic(context) ? Results.Redirect(back) : Form(context, project, back, StatusCodes.Status200OK, error: null);
        });
        routes.MapPost("/projects/{project}/sign-in", (HttpContext context, string project) => SignInAsync(context, project));
    }

    /// <summary>The session a signed-in browser sent with a page of its project, or null.</summary>
    public static string? CookieSession(HttpRequest request) =>
        request.Cookies.TryGetValue(CookieName, out var session) && session is { Length: > 0 } ? session : null;

    /// <summary>The sign-in address for <paramref name="project"/> that comes back to <paramref name="returnPath"/>.</summary>
    public static string Link(string project, string returnPath) =>
        $"{ProjectPath(project)}/sign-in?return={Uri.EscapeDataString(returnPath)}";

    private static async Task<IResult> SignInAsync(HttpContext context, string project)
    {
        var request = context.Request;
        if (ReadingIsPublic(context))
        {
            return Results.Redirect(ProjectPath(project), permanent: false);
        }

        // Another origin's form could sign a browser in as somebody else; a browser always says where a POST comes from.
        if (request.Headers.Origin.ToString() is { Length: > 0 } origin && !string.Equals(origin, $"{request.Scheme}://{request.Host}", StringComparison.OrdinalIgnoreCase))
        {
            return Form(context, project, ProjectPath(project), StatusCodes.Status403Forbidden, $"A sign-in must be posted from this server's own page, not from {origin}.");
        }

        if (!request.HasFormContentType)
        {
            return Form(context, project, ProjectPath(project), StatusCodes.Status415UnsupportedMediaType, "A sign-in is a form: application/x-www-form-urlencoded.");
        }

        var form = await request.ReadFormAsync(context.RequestAborted);
        var back = ReturnPath(project, form["return"].ToString());
        var token = form["token"].ToString().Trim();
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        var readHash = await storage.ReadTokenHashAsync(project, context.RequestAborted);
        if (token.Length == 0 || readHash is null || !ProjectToken.Matches(token, readHash))
        {
            var why = token.Length > 0 && await storage.TokenHashAsync(project, context.RequestAborted) is { } writeHash && ProjectToken.Matches(token, writeHash)
                ? $"That is project '{project}''s write token; a browser signs in with its read-only token (perfbudgets-server --add-read-token), so that the token that uploads is never kept in a browser."
                : $"That is not project '{project}''s read-only token.";
            return Form(context, project, back, StatusCodes.Status403Forbidden, why);
        }

        var lifetime = context.RequestServices.GetRequiredService<ResultsServerOptions>().SignInLifetime;
        var session = DashboardSession.Create(project, readHash, DateTimeOffset.UtcNow + lifetime);
        context.Response.Cookies.Append(CookieName, session, new CookieOptions
        {
            HttpOnly = true,
            SameSite = SameSiteMode.Strict,
            Secure = request.IsHttps,
            Path = ProjectPath(project),
            IsEssential = true,
        });
        return Results.Redirect(back);
    }

    private static IResult Form(HttpContext context, string project, string back, int status, string? error)
    {
        context.Response.Headers.ContentSecurityPolicy = ContentSecurityPolicy;
        context.Response.Headers.XContentTypeOptions = "nosniff";
        context.Response.Headers.CacheControl = "no-store";
        var body = $"""
            <h1>{HtmlPage.Encode(project)}</h1>
            <p>This server needs the project's read-only token to read it (<code>perfbudgets-server --add-read-token</code>). A session made from it, not the token, is kept in a cookie for this project's pages until the browser closes or the session ends.</p>
            {(error is null ? "" : $"<p class=\"error\">{HtmlPage.Encode(error)}</p>")}
            <form method="post" action="{HtmlPage.Encode(ProjectPath(project))}/sign-in">
            <input type="hidden" name="return" value="{HtmlPage.Encode(back)}">
            <label>Token <input type="password" name="token" autocomplete="current-password" required></label>
            <button type="submit">Sign in</button>
            </form>
            """;
        return Results.Content(HtmlPage.Render($"Sign in: {project}", body), "text/html; charset=utf-8", statusCode: status);
    }

    private static bool ReadingIsPublic(HttpContext context) =>
        !context.RequestServices.GetRequiredService<ResultsServerOptions>().ReadTokenRequired;

    private static string ProjectPath(string project) => $"/projects/{HtmlPage.Segment(project)}";

    // Only a page of the same project: anything else (another host, another project, a scheme) goes to its project page.
    private static string ReturnPath(string project, string asked)
    {
        var home = ProjectPath(project);
        return asked == home || (asked.StartsWith(home + "/", StringComparison.Ordinal) && !asked.Contains("//", StringComparison.Ordinal)
            && !asked.Contains('\\', StringComparison.Ordinal))
            ? asked
            : home;
    }
}
