using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// The dashboard's pages, served by the results server beside its API: <c>GET /</c> (the projects),
/// <c>GET /projects/{project}[?branch=main]</c> and <c>GET /projects/{project}/budgets/{budget}[?branch=main][&amp;before=RUNID]</c> (a page of runs). Reading follows the API's rule (public, or the
/// project's token with <c>--read-token-required</c>, which a browser sends by <see cref="SignInEndpoints"/>); a refusal
/// or a miss is an HTML page with its status, a refused read with a link to sign in.
/// </summary>
internal static class DashboardEndpoints
{
    public static void Map(IEndpointRouteBuilder routes)
    {
        // The list of projects is public only where reading is: under --read-token-required a name is not given away.
        foreach (var index in new[] { "/", "/projects" })
        {
            // As a Delegate, not a RequestDelegate: the IResult it answers is then written to the response.
            routes.MapGet(index, (Delegate)((HttpContext context) => Page(context, async (storage, options, _) => options.ReadTokenRequired
                ? throw new ServerInputException(StatusCodes.Status403Forbidden, "This server lists no projects: reading needs a project's token.")
                : IndexPage.Render(await storage.ListProjectsAsync(context.RequestAborted)))));
        }

        routes.MapGet("/projects/{project}", (HttpContext context, string project) => Page(context, async (storage, options, branch) =>
        {
            await ResultsEndpoints.AuthorizeReadAsync(context, storage, project, fromCookie: true);
            var budgets = await storage.GetLatestAsync(project, branch, context.RequestAborted);
            return ProjectPage.Render(project, branch, budgets, options.CommitUrlTemplate);
        }));
        routes.MapGet("/projects/{project}/budgets/{budget}", (HttpContext context, string project, string budget) => Page(context, async (storage, options, branch) =>
        {
            await ResultsEndpoints.AuthorizeReadAsync(context, storage, project, fromCookie: true);
            var name = ResultsEndpoints.BudgetName(budget);
            long? before = context.Request.Query["before"].ToString() is { Length: > 0 } asked
                ? long.TryParse(asked, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var runId) ? runId
                    : throw new ServerInputException(StatusCodes.Status400BadRequest, $"?before= is a run id (was '{asked}').")
                : null;
            var page = await storage.GetSeriesPageAsync(project, name, branch, options.RunsPerPage, before, context.RequestAborted);
            if (page.Points.Count == 0)
            {
                throw new ServerInputException(StatusCodes.Status404NotFound, $"Project '{project}' has no run with budget '{name}' on branch '{branch}'.");
            }

            // The series' newest ChangePointRuns are read and searched for change points once per upload, not per page view.
            var thresholds = context.RequestServices.GetRequiredService<Changes.ShiftThresholds>();
            var marks = await context.RequestServices.GetRequiredService<Changes.ChangePointCache>().GetOrComputeAsync(
                $"marks\n{project}\n{branch}\n{name}", await storage.RunsVersionAsync(project, context.RequestAborted),
                async () => ChangePointMarks.ForSeries(name,
                    (await storage.GetSeriesPageAsync(project, name, branch, options.ChangePointRuns, null, CancellationToken.None)).Points, thresholds));
            return BudgetPage.Render(project, name, branch, page, marks, newer: before is not null, options.CommitUrlTemplate);
        }));
    }

    private static async Task<IResult> Page(HttpContext context, Func<IResultsStorage, ResultsServerOptions, string, Task<string>> render)
    {
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        var options = context.RequestServices.GetRequiredService<ResultsServerOptions>();
        var branch = context.Request.Query["branch"].ToString() is { Length: > 0 } named ? named : "main";
        context.Response.Headers.ContentSecurityPolicy = HtmlPage.ContentSecurityPolicy;
        context.Response.Headers.XContentTypeOptions = "nosniff";
        try
        {
            return Results.Content(await render(storage, options, branch), "text/html; charset=utf-8");
        }
        catch (ServerInputException e)
        {
            // A refused read of a project's page offers its sign-in (a browser has no other way to send the token).
            var signIn = e.StatusCode is StatusCodes.Status401Unauthorized or StatusCodes.Status403Forbidden
                && context.Request.RouteValues["project"] is string project
                ? SignInEndpoints.Link(project, context.Request.Path + context.Request.QueryString)
                : null;
            return Results.Content(HtmlPage.Error(e.StatusCode, e.Message, signIn), "text/html; charset=utf-8", statusCode: e.StatusCode);
        }
    }
}
