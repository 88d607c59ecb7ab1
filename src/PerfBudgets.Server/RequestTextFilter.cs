using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace PerfBudgets.Server;

/// <summary>
/// Checks every route value and query value of a request against <see cref="InputText"/> before an endpoint sees it,
/// so that no reader's name (a project, a branch, a commit, a budget) reaches the database with a NUL, a control
/// character, a lone surrogate or an unbounded length: each is 400 naming the field instead of a database's 500.
/// </summary>
internal static class RequestTextFilter
{
    public static void Use(IApplicationBuilder app) => app.Use(async (context, next) =>
    {
        if (FirstProblem(context.Request) is { } problem)
        {
            await Results.Problem(statusCode: StatusCodes.Status400BadRequest, detail: problem).ExecuteAsync(context);
            return;
        }

        await next(context);
    });

    private static string? FirstProblem(HttpRequest request)
    {
        foreach (var (name, value) in request.RouteValues)
        {
            if (value is string text && InputText.Problem(text, MaxLength(name)) is { } problem)
            {
                return $"'{name}' {problem}.";
            }
        }

        foreach (var (name, values) in request.Query)
        {
            if (InputText.Problem(name, InputText.MaxQueryValueLength) is { } inName)
            {
                return $"A query parameter's name {inName}.";
            }

            foreach (var value in values)
            {
                if (value is not null && InputText.Problem(value, MaxLength(name)) is { } problem)
                {
                    return $"'?{name}=' {problem}.";
                }
            }
        }

        return null;
    }

    private static int MaxLength(string name) => name switch
    {
        "project" => InputText.MaxProjectLength,
        "budget" => InputText.MaxBudgetLength,
        "commit" => InputText.MaxCommitLength,
        "branch" => InputText.MaxBranchLength,
        _ => InputText.MaxQueryValueLength,
    };
}
