using System.Globalization;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting;

/// <summary>Which run a recorded result belongs to, for <c>history.jsonl</c>.</summary>
public static class RunIdentity
{
    /// <summary>Environment variable with the run's id; Cake sets one per <c>dotnet cake</c> invocation, so its four test processes share it.</summary>
    public const string RunIdEnvironmentVariable = HarnessEnvironment.RunIdVariable;

    /// <summary>Environment variable with the commit measured; Cake sets it, CI may (GITHUB_SHA is read as well).</summary>
    public const string CommitEnvironmentVariable = HarnessEnvironment.CommitVariable;

    private static readonly string GeneratedRunId =
        DateTime.UtcNow.ToString("yyyyMMdd'T'HHmmss'Z'", CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..6];

    /// <summary><see cref="RunIdEnvironmentVariable"/> if set, else an id generated once per process (UTC start time and a random suffix).</summary>
    public static string RunId => HarnessEnvironment.RunId ?? GeneratedRunId;

    /// <summary><see cref="CommitEnvironmentVariable"/>, else <c>GITHUB_SHA</c>, else null (git is not run for it).</summary>
    public static string? Commit => HarnessEnvironment.Commit;
}
