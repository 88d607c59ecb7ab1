using System.Globalization;

namespace PerfBudgets.Reporting;

/// <summary>
/// Which run a recorded result belongs to, for <c>history.jsonl</c>: the options' run id and commit
/// (<see cref="BudgetGateOptions.RunId"/>, <see cref="BudgetGateOptions.Commit"/>), given to the store with each result.
/// </summary>
/// <param name="RunId">The run; an id generated once per process when the options give none.</param>
/// <param name="Commit">The commit measured, or null (git is not run for it).</param>
public sealed record RunIdentity(string RunId, string? Commit)
{
    /// <summary>
    /// The id of a run the options do not name: the <c>dotnet test</c> command's (<see cref="TestInvocation"/>), so the
    /// test hosts of one command are one run; else this process's UTC start time and a random suffix, the same for every gate.
    /// </summary>
    public static string GeneratedRunId { get; } = TestInvocation.Id ??
        DateTime.UtcNow.ToString("yyyyMMdd'T'HHmmss'Z'", CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..6];

    /// <summary>
    /// The run the options name (<paramref name="runId"/>, <paramref name="commit"/>), else this process's generated id.
    /// The gate passes its options' values: the result model does not depend on the gate.
    /// </summary>
    public static RunIdentity Of(string? runId, string? commit) => new(runId ?? GeneratedRunId, commit);
}
