namespace PerfBudgets.Budgets;

/// <summary>The active profile: <c>ci</c> (default, short runs) or <c>local</c> (long runs), from <c>PERF_PROFILE</c>.</summary>
public static class PerfProfile
{
    /// <summary>Environment variable that selects the profile.</summary>
    public const string EnvironmentVariable = "PERF_PROFILE";

    /// <summary>The profile used when <see cref="EnvironmentVariable"/> is not set.</summary>
    public const string Default = "ci";

    /// <summary>The profile named by the environment, or <see cref="Default"/>.</summary>
    public static string Current
    {
        get
        {
            var value = Environment.GetEnvironmentVariable(EnvironmentVariable);
            return string.IsNullOrWhiteSpace(value) ? Default : value.Trim();
        }
    }
}
