using System.Globalization;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting;

/// <summary>Which run a recorded result belongs to, for <c>history.jsonl</c>.</summary>
internal static class RunIdentity
{
    private static readonly string GeneratedRunId =
        DateTime.UtcNow.ToString("yyyyMMdd'T'HHmmss'Z'", CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..6];

    /// <summary><see cref="HarnessEnvironment.RunIdVariable"/> if set, else an id generated once per process (UTC start time and a random suffix).</summary>
    public static string RunId => HarnessEnvironment.RunId ?? GeneratedRunId;

    /// <summary><see cref="HarnessEnvironment.CommitVariable"/>, else <c>GITHUB_SHA</c>, else null (git is not run for it).</summary>
    public static string? Commit => HarnessEnvironment.Commit;
}
