using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace PerfBudgets.Server;

/// <summary>
/// The last resort for an exception no endpoint turned into a 4xx: logged with its cause (the request's method and
/// path, the exception and its stack) and answered 500 with a JSON problem body, so that a 500 is never silent.
/// Before this an unhandled exception was a 500 with an empty body that nothing recorded (the server clears the host's
/// log providers). A request its client abandoned is not an error and is not logged.
/// </summary>
internal static class UnhandledErrors
{
    /// <summary>The log category the 500s are written under.</summary>
    public const string Category = "PerfBudgets.Server.UnhandledErrors";

    public static void Use(IApplicationBuilder app)
    {
        var log = app.ApplicationServices.GetRequiredService<ILoggerFactory>().CreateLogger(Category);
        app.Use(async (context, next) =>
        {
            try
            {
                await next(context);
            }
            catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
            {
                // The client went away: there is no one to answer.
            }
            catch (Exception e)
            {
                log.LogError(e, "500 for {Method} {Path}: {Cause}", context.Request.Method, context.Request.Path.Value, e.Message);
                if (context.Response.HasStarted)
                {
                    throw;
                }

                context.Response.Clear();
                await Results.Problem(statusCode: StatusCodes.Status500InternalServerError,
                    detail: "The server failed on this request; its log says why.").ExecuteAsync(context);
            }
        });
    }
}
