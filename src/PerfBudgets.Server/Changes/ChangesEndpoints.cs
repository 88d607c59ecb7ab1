using System.Globalization;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Changes;

/// <summary>
/// <c>GET /api/projects/{project}/changes?branch=main[&amp;last=N][&amp;minRuns=5][&amp;minShift=0.1]</c>: the change
/// points of the project's timed budgets on the branch (<see cref="ProjectChanges"/>). Without <c>minShift</c> each
/// budget takes its own smallest step (<see cref="ShiftThresholds"/>), and the answer's <c>minShift</c> is null. Read
/// access as the other reads. Computed once per upload (<see cref="ChangePointCache"/>), not per request.
/// </summary>
internal static class ChangesEndpoints
{
    public static void Map(IEndpointRouteBuilder routes) =>
        routes.MapGet("/api/projects/{project}/changes", async (HttpContext context, string project) =>
        {
            try
            {
                return await ChangesAsync(context, project);
            }
            catch (ServerInputException e)
            {
                return Results.Problem(statusCode: e.StatusCode, detail: e.Message);
            }
        });

    private static async Task<IResult> ChangesAsync(HttpContext context, string project)
    {
        var storage = context.RequestServices.GetRequiredService<IResultsStorage>();
        await ResultsEndpoints.AuthorizeReadAsync(context, storage, project);
        var query = context.Request.Query;
        var branch = query["branch"].ToString() is { Length: > 0 } named ? named : "main";
        int? last = query["last"].Count > 0 ? Positive("last", query["last"].ToString()) : null;
        var settings = new ChangePointSettings
        {
            MinSegmentLength = query["minRuns"].Count > 0 ? Positive("minRuns", query["minRuns"].ToString()) : ChangePointSettings.Default.MinSegmentLength,
            MinRelativeShift = query["minShift"].Count > 0 ? Fraction("minShift", query["minShift"].ToString()) : ChangePointSettings.Default.MinRelativeShift,
        };
        if (settings.MinSegmentLength < 2)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest, "minRuns is at least 2: a level of one run is one run.");
        }

        // Two levels of minRuns each must fit in the runs searched; a larger one (2147483647 overflowed the finder's
        // 2 × minRuns, a 500) can find nothing.
        var searched = context.RequestServices.GetRequiredService<ResultsServerOptions>().ChangePointRuns;
        if (settings.MinSegmentLength > searched / 2)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"minRuns is at most {searched / 2}: two levels of it must fit in the {searched} newest runs searched (ChangePointRuns).");
        }

        var thresholds = context.RequestServices.GetRequiredService<ShiftThresholds>();
        var cache = context.RequestServices.GetRequiredService<ChangePointCache>();
        var question = string.Create(CultureInfo.InvariantCulture, $"changes\n{project}\n{branch}\n{last}\n{settings.MinSegmentLength}\n{settings.MinRelativeShift:R}");
        // Not the request's cancellation: the computation may be shared with other requests asking the same.
        var changes = await cache.GetOrComputeAsync(question, await storage.RunsVersionAsync(project, context.RequestAborted),
            () => ProjectChanges.FindAsync(storage, project, branch, last, new ChangePointFinder(settings), thresholds,
                searched, CancellationToken.None));
        return Results.Json(new
        {
            project,
            branch,
            last,
            minRuns = settings.MinSegmentLength,
            minShift = settings.MinRelativeShift,
            changes,
        });
    }

    private static int Positive(string name, string value) =>
        int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n > 0
            ? n
            : throw new ServerInputException(StatusCodes.Status400BadRequest, $"{name} must be a whole number of runs, at least 1 (was '{value}').");

    private static double Fraction(string name, string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var f) && f > 0 && double.IsFinite(f)
            ? f
            : throw new ServerInputException(StatusCodes.Status400BadRequest, $"{name} must be a positive fraction, e.g. 0.1 for 10% (was '{value}').");
}
