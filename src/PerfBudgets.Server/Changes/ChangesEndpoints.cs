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
/// access as the other reads. The server's own settings are computed once per upload (<see cref="ChangePointCache"/>),
/// not per request; a reader's own <c>minRuns</c> or <c>minShift</c> per request, for a reader without a token at most
/// <see cref="ResultsServerOptions.MaxAnonymousComputations"/> at once (<see cref="AnonymousComputations"/>).
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
        var options = context.RequestServices.GetRequiredService<ResultsServerOptions>();
        IReadOnlyList<BudgetChange> changes;
        if (settings == ChangePointSettings.Default)
        {
            // The server's own question: computed once per upload and shared, so not stopped when one reader goes.
            // `last` filters the answer rather than being part of the question, so that it makes no computation of its own.
            var cache = context.RequestServices.GetRequiredService<ChangePointCache>();
            var all = await cache.GetOrComputeAsync($"changes\n{project}\n{branch}", await storage.RunsVersionAsync(project, context.RequestAborted),
                () => ProjectChanges.FindAsync(storage, project, branch, null, new ChangePointFinder(settings), thresholds, searched, CancellationToken.None));
            changes = last is { } n ? [.. all.Where(c => c.RunsAfter <= n)] : all;
        }
        else
        {
            // A question of the reader's own settings is computed for it alone and kept by no cache (each new minShift
            // would be a search, and a crowd of them would push the shared answers out), and stops when the reader goes.
            // Anonymous ones take one of few slots (MaxAnonymousComputations) or are 429 at once: they never wait in
            // the read queue and the cores that the team's reads need.
            using var slot = await ResultsEndpoints.HoldsTokenAsync(context, storage, project, options)
                ? null
                : context.RequestServices.GetRequiredService<AnonymousComputations>().TryEnter()
                    ?? throw TooMany(context, options);
            changes = await ProjectChanges.FindAsync(storage, project, branch, last, new ChangePointFinder(settings), thresholds, searched, context.RequestAborted);
        }

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

    private static ServerInputException TooMany(HttpContext context, ResultsServerOptions options)
    {
        context.Response.Headers.RetryAfter = "1";
        return new ServerInputException(StatusCodes.Status429TooManyRequests,
            $"The server is answering as many change-point questions with settings of their own (minRuns, minShift) for readers without a token as it takes at once ({options.MaxAnonymousComputations}, MaxAnonymousComputations): ask without them for the server's own, which are kept, try again, or send the project's read token.");
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
