namespace PerfBudgets.Budgets;

/// <summary>
/// The one place the harness reads environment variables. Every setting a user can make from the environment is a
/// property here, with its variable named in <see cref="Variables"/>. A gate's settings are read only by
/// <c>BudgetGateOptions.FromEnvironment</c> and reach the gate, the store and the history through the options, so a
/// test can build a gate that behaves like CI's without touching the process. Four process settings are read where
/// they are used, because what uses them runs without a gate: the measurement lock file (the suites take it before any
/// gate exists), the dotnet host and <c>PATH</c> (the instruction meter starts Valgrind before a count is gated), and
/// the store of counted runs (the meter reuses a run before a count is gated).
/// </summary>
/// <remarks>
/// Read on every access, not cached: a test may set a variable for the length of one test.
/// </remarks>
public static class HarnessEnvironment
{
    /// <summary><c>PERF_BUDGETS_FILE</c>: the budget file, instead of the nearest <c>budgets.json</c> above the test assembly.</summary>
    public const string BudgetsFileVariable = "PERF_BUDGETS_FILE";

    /// <summary><c>PERF_PROFILE</c>: the profile the limits and run sizes are resolved for (<c>ci</c>, the default, or <c>local</c>).</summary>
    public const string ProfileVariable = "PERF_PROFILE";

    /// <summary><c>PERF_ARTIFACTS_DIR</c>: where <c>results.json</c>, <c>summary.md</c> and <c>history.jsonl</c> go.</summary>
    public const string ResultsDirectoryVariable = "PERF_ARTIFACTS_DIR";

    /// <summary><c>PERF_BASELINE</c>: the <c>results.json</c> of an earlier run that this run is compared with.</summary>
    public const string BaselineVariable = "PERF_BASELINE";

    /// <summary><c>PERF_BASELINE_STRICT</c>: <c>1</c> or <c>true</c> fails a budget that is worse than the baseline beyond its noise.</summary>
    public const string BaselineStrictVariable = "PERF_BASELINE_STRICT";

    /// <summary><c>PERF_RECORDING_STRICT</c>: <c>1</c> or <c>true</c> fails a counted budget measured below its recording by more than its margin.</summary>
    public const string RecordingStrictVariable = "PERF_RECORDING_STRICT";

    /// <summary><c>PERF_DIAGNOSE</c>: <c>always</c> diagnoses passing budgets too, recording a breakdown to compare a later failure with.</summary>
    public const string DiagnoseVariable = "PERF_DIAGNOSE";

    /// <summary><c>PERF_INSTRUCTIONS</c>: <c>off</c> turns the counted budgets off on purpose (reported as not measured, even under CI).</summary>
    public const string InstructionsVariable = "PERF_INSTRUCTIONS";

    /// <summary><c>CI</c>: <c>true</c> (as GitHub Actions, GitLab and Azure Pipelines set it) makes an unmeasured budget a failure.</summary>
    public const string CiVariable = "CI";

    /// <summary><c>PERF_RUN_ID</c>: the run a result belongs to in <c>history.jsonl</c>; Cake sets one per invocation.</summary>
    public const string RunIdVariable = "PERF_RUN_ID";

    /// <summary><c>PERF_COMMIT</c> (else <c>GITHUB_SHA</c>): the commit measured, for <c>history.jsonl</c>.</summary>
    public const string CommitVariable = "PERF_COMMIT";

    /// <summary><c>GITHUB_SHA</c>: read when <see cref="CommitVariable"/> is not set.</summary>
    public const string GitHubShaVariable = "GITHUB_SHA";

    /// <summary><c>GITHUB_STEP_SUMMARY</c>: a file each test process appends its summary table to as it exits.</summary>
    public const string StepSummaryVariable = "GITHUB_STEP_SUMMARY";

    /// <summary>
    /// <c>PERF_TARGET_FRAMEWORK</c>: the target framework whose limits apply (a budget's <c>runtimes</c> entry), instead
    /// of the one the running program was built for.
    /// </summary>
    public const string TargetFrameworkVariable = "PERF_TARGET_FRAMEWORK";

    /// <summary>
    /// <c>PERF_BASE_COMMIT</c>: the commit the paired budgets compare the working tree with (a ref or a hash), or <c>none</c> to
    /// turn pairing off; by default <c>HEAD</c> when tracked files have uncommitted changes outside CI, else <c>HEAD</c>'s first parent
    /// (<see cref="Measuring.BaseBuild"/>).
    /// </summary>
    public const string BaseVariable = "PERF_BASE_COMMIT";

    // The old name of BaseVariable, read when the new one is not set: it differed from PERF_BASELINE (an earlier run's
    // results) by three letters.
    internal const string OldBaseVariable = "PERF_BASE";

    /// <summary><c>PERF_MEASUREMENT_LOCK</c>: the machine-wide lock file that keeps suites from measuring at once.</summary>
    public const string MeasurementLockVariable = "PERF_MEASUREMENT_LOCK";

    /// <summary>How many base commits' trees and builds <c>artifacts/base/</c> keeps (default 3): older ones are deleted when a new base is built.</summary>
    public const string BaseKeepVariable = "PERF_BASE_KEEP";

    /// <summary><c>DOTNET_HOST_PATH</c>: the dotnet host (the SDK sets it in tests) that starts workloads under Callgrind.</summary>
    public const string DotnetHostVariable = "DOTNET_HOST_PATH";

    /// <summary><c>PATH</c>: searched for <c>valgrind</c>.</summary>
    public const string PathVariable = "PATH";

    /// <summary><c>PERF_REUSE</c>: <c>off</c> counts every counted run again instead of reusing a stored one with byte-identical inputs.</summary>
    public const string ReuseVariable = "PERF_REUSE";

    /// <summary><c>PERF_REUSE_DIR</c>: the folder of stored counted runs (default: <c>artifacts/reuse</c> beside <c>budgets.json</c>), which a CI cache can keep.</summary>
    public const string ReuseDirectoryVariable = "PERF_REUSE_DIR";

    /// <summary>The profile used when <see cref="ProfileVariable"/> is not set.</summary>
    public const string DefaultProfile = "ci";

    /// <summary>Every variable the harness reads, with what it does: the table the documentation shows.</summary>
    public static IReadOnlyList<(string Name, string Effect)> Variables { get; } =
    [
        (BudgetsFileVariable, "the budget file, instead of the nearest budgets.json above the test assembly"),
        (ProfileVariable, "the profile the limits and run sizes are resolved for: ci (default) or local"),
        (ResultsDirectoryVariable, "where results.json, summary.md and history.jsonl go (default: artifacts/budgets beside budgets.json)"),
        (BaselineVariable, "the results.json of an earlier run to compare with"),
        (BaselineStrictVariable, "1 or true: a budget worse than the baseline beyond its noise fails"),
        (RecordingStrictVariable, "1 or true: a counted budget below its recording by more than its margin (a stale recording) fails"),
        (DiagnoseVariable, "always: diagnose passing budgets too, recording a breakdown for later comparisons"),
        (InstructionsVariable, "off: the counted budgets are turned off on purpose (not measured, even under CI)"),
        (CiVariable, "true: a budget that cannot be measured fails instead of being skipped"),
        (TargetFrameworkVariable, "the target framework whose limits apply (a budget's runtimes entry), e.g. net8.0 (default: the one the test assembly was built for)"),
        (BaseVariable, "the commit the paired (.VsBase) budgets compare with, or none to turn them off (PERF_BASE, its old name, is still read) (default: HEAD when tracked files outside artifacts/ have uncommitted changes and CI is not true, else HEAD's first parent)"),
        (BaseKeepVariable, "how many base commits artifacts/base/ keeps, the newest (default 3); older ones are deleted when another base is built"),
        (RunIdVariable, "the run id written to results.json and history.jsonl (default: the dotnet test command's on Linux, else one per process)"),
        (CommitVariable, "the commit written to history.jsonl (else GITHUB_SHA)"),
        (GitHubShaVariable, "the commit written to history.jsonl when PERF_COMMIT is not set (GitHub Actions sets it)"),
        (StepSummaryVariable, "a file each test process appends its summary table to"),
        (ReuseVariable, "off: count every counted run again instead of reusing a stored run whose inputs (the host's folder, every file it mapped, its start) are byte-identical"),
        (ReuseDirectoryVariable, "the folder of stored counted runs, for a CI cache to keep (default: artifacts/reuse beside budgets.json)"),
        (MeasurementLockVariable, "the machine-wide lock file (default: perfbudgets-measurement.lock in the temporary folder)"),
        (DotnetHostVariable, "the dotnet host that starts workloads under Callgrind (else dotnet on PATH)"),
        (PathVariable, "searched for valgrind"),
    ];

    /// <summary>The budget file named by <see cref="BudgetsFileVariable"/>, or null.</summary>
    public static string? BudgetsFile => Read(BudgetsFileVariable);

    /// <summary>The profile named by <see cref="ProfileVariable"/>, or <see cref="DefaultProfile"/>.</summary>
    public static string Profile => Read(ProfileVariable) ?? DefaultProfile;

    /// <summary>The results folder named by <see cref="ResultsDirectoryVariable"/>, or null.</summary>
    public static string? ResultsDirectory => Read(ResultsDirectoryVariable);

    /// <summary>The baseline file named by <see cref="BaselineVariable"/>, or null.</summary>
    public static string? Baseline => Read(BaselineVariable);

    /// <summary>True when <see cref="BaselineStrictVariable"/> is <c>1</c> or <c>true</c>.</summary>
    public static bool BaselineStrict => Read(BaselineStrictVariable) == "1" || Is(BaselineStrictVariable, "true");

    /// <summary>True when <see cref="RecordingStrictVariable"/> is <c>1</c> or <c>true</c>.</summary>
    public static bool RecordingStrict => Read(RecordingStrictVariable) == "1" || Is(RecordingStrictVariable, "true");

    /// <summary>True when <see cref="DiagnoseVariable"/> is <c>always</c>.</summary>
    public static bool DiagnoseAlways => Is(DiagnoseVariable, "always");

    /// <summary>True when <see cref="InstructionsVariable"/> is <c>off</c>.</summary>
    public static bool CountedBudgetsOff => Is(InstructionsVariable, "off");

    /// <summary>True when <see cref="CiVariable"/> is <c>true</c>.</summary>
    public static bool IsCi => Is(CiVariable, "true");

    /// <summary>
    /// The target framework named by <see cref="TargetFrameworkVariable"/>, else the one the running program was built
    /// for (<c>net8.0</c> from <c>.NETCoreApp,Version=v8.0</c>), or null when neither is known.
    /// </summary>
    public static string? TargetFramework => Read(TargetFrameworkVariable) ?? BuiltTargetFramework(AppContext.TargetFrameworkName);

    /// <summary>The short name of a .NET target framework's full name: <c>net8.0</c> for <c>.NETCoreApp,Version=v8.0</c>; null for another.</summary>
    internal static string? BuiltTargetFramework(string? frameworkName)
    {
        const string prefix = ".NETCoreApp,Version=v";
        return frameworkName is not null && frameworkName.StartsWith(prefix, StringComparison.Ordinal) ? "net" + frameworkName[prefix.Length..] : null;
    }

    /// <summary>The base named by <see cref="BaseVariable"/>, or null.</summary>
    public static string? Base => Read(BaseVariable) ?? Read(OldBaseVariable);

    /// <summary>The line that says the base commit was named by its old variable, or null when it was not.</summary>
    internal static string? DeprecationLine => Read(BaseVariable) is null && Read(OldBaseVariable) is not null
        ? $"{OldBaseVariable} is deprecated and still read: name the base commit with {BaseVariable} ({BaselineVariable} stays the earlier run's results.json)"
        : null;

    /// <summary>
    /// The number of bases <see cref="BaseKeepVariable"/> asks <c>artifacts/base/</c> to keep, at least 1; 3 when it is
    /// not set. A value that is not a positive whole number throws, naming the variable.
    /// </summary>
    public static int BaseKeep => Read(BaseKeepVariable) is not { } text ? 3
        : int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var keep) && keep >= 1 ? keep
        : throw new ArgumentException($"{BaseKeepVariable}={text} is not a number of bases to keep: give a whole number, 1 or more.");

    /// <summary>True when <see cref="BaseVariable"/> is <c>none</c>: the paired budgets are off on purpose.</summary>
    public static bool PairingOff => string.Equals(Base, "none", StringComparison.OrdinalIgnoreCase);

    /// <summary>The run id named by <see cref="RunIdVariable"/>, or null.</summary>
    public static string? RunId => Read(RunIdVariable);

    /// <summary>The commit named by <see cref="CommitVariable"/>, else by <see cref="GitHubShaVariable"/>, or null.</summary>
    public static string? Commit => Read(CommitVariable) ?? Read(GitHubShaVariable);

    /// <summary>The step summary file named by <see cref="StepSummaryVariable"/>, or null.</summary>
    public static string? StepSummaryFile => Read(StepSummaryVariable);

    /// <summary>True when <see cref="ReuseVariable"/> is <c>off</c>.</summary>
    public static bool ReuseOff => Is(ReuseVariable, "off");

    /// <summary>The store folder named by <see cref="ReuseDirectoryVariable"/>, or null.</summary>
    public static string? ReuseDirectory => Read(ReuseDirectoryVariable);

    /// <summary>The file a workload host under the meter appends the files it mapped to (set by the meter, not by a user), or null.</summary>
    internal static string? MappedFilesList => Read(Measuring.CountKey.MappedFilesVariable);

    /// <summary>The lock file named by <see cref="MeasurementLockVariable"/>, or null.</summary>
    public static string? MeasurementLockFile => Read(MeasurementLockVariable);

    /// <summary>The dotnet host named by <see cref="DotnetHostVariable"/>, or null.</summary>
    public static string? DotnetHost => Read(DotnetHostVariable);

    /// <summary>The folders of <see cref="PathVariable"/>, in order.</summary>
    public static IReadOnlyList<string> SearchPath =>
        (Read(PathVariable) ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries);

    private static bool Is(string variable, string value) => string.Equals(Read(variable), value, StringComparison.OrdinalIgnoreCase);

    private static string? Read(string variable) =>
        Environment.GetEnvironmentVariable(variable) is { } value && !string.IsNullOrWhiteSpace(value) ? value.Trim() : null;
}
