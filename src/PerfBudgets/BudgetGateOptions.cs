using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace PerfBudgets;

/// <summary>
/// Everything a <see cref="BudgetGate"/> can be told: which budget file and profile, where results go, the baseline,
/// how failures are diagnosed and reported. Built in code, or from the environment by <see cref="FromEnvironment"/>
/// (what <see cref="BudgetGate.Default"/> does), so a test can build a gate that behaves exactly like CI's.
/// </summary>
public sealed record BudgetGateOptions
{
    /// <summary>The budget file; null finds the nearest <c>budgets.json</c> above the application's base directory.</summary>
    public string? BudgetsFile { get; init; }

    /// <summary>The profile the limits and run sizes are resolved for.</summary>
    public string Profile { get; init; } = HarnessEnvironment.DefaultProfile;

    /// <summary>
    /// The target framework whose limits apply, e.g. <c>net8.0</c>: a budget with an entry for it in its <c>runtimes</c>
    /// object takes that entry's limit (and recording); null, or a framework a budget has no entry for, takes the
    /// budget's own. By default the one the running program (the test assembly) was built for.
    /// </summary>
    public string? TargetFramework { get; init; } = HarnessEnvironment.BuiltTargetFramework(AppContext.TargetFrameworkName);

    /// <summary>Where results go; null puts them in <c>artifacts/budgets</c> beside the budget file.</summary>
    public string? ResultsDirectory { get; init; }

    /// <summary>
    /// The <c>results.json</c> of an earlier run to compare with, or null. A budget within its limit but worse than the
    /// baseline by more than its noise threshold is recorded as a warning, and a failing allocation budget names the
    /// types that changed since the baseline's breakdown of it.
    /// </summary>
    public string? BaselineFile { get; init; }

    /// <summary>When true, a baseline warning is a failure instead.</summary>
    public bool BaselineStrict { get; init; }

    /// <summary>
    /// When true, a counted budget measured below its recording by more than its margin fails by name instead of
    /// warning: the recording is stale (an improvement not yet recorded, or a first guess), and its limit lets a
    /// regression of the same size pass. Off by default: the warning names <c>perfbudgets record</c>.
    /// </summary>
    public bool RecordingStrict { get; init; }

    /// <summary>
    /// The factor a floor (<c>requests-per-second-min</c>, <c>operations-per-second-min</c>, <c>efficiency-min</c>) is
    /// set below the slowest run it is proposed from: <c>perfbudgets propose</c> sets it 1.5× below (the default). A
    /// figure more than this factor above its floor, after the kind's noise (figure × (1 − noise) ÷ factor &gt; floor:
    /// even a run slowed by the whole spread of unchanged runs would propose a higher floor), warns that the floor is
    /// stale and names <c>perfbudgets propose</c>. At least 1; <see cref="double.PositiveInfinity"/> never warns.
    /// </summary>
    public double FloorFactor { get; init; } = DefaultFloorFactor;

    /// <summary>The default <see cref="FloorFactor"/>, which the tool's floor proposals use too, so that the warning and the proposal agree.</summary>
    public const double DefaultFloorFactor = 1.5;

    /// <summary>
    /// When true, diagnoses run on passing budgets too and their breakdowns are recorded: a baseline for a later failure
    /// to be compared with. Off by default: a passing run must not pay for them.
    /// </summary>
    public bool DiagnoseAlways { get; init; }

    /// <summary>How long a failing budget's diagnosis may take before the failure is reported without it.</summary>
    public TimeSpan DiagnosisTimeout { get; init; } = TimeSpan.FromSeconds(90);

    /// <summary>
    /// When true, a budget that cannot be measured fails instead of being reported as skipped (CI, where a missing tool
    /// must not pass silently).
    /// </summary>
    public bool IsCi { get; init; }

    /// <summary>When true, the counted budgets were turned off on purpose: not measured, and not a failure even under CI.</summary>
    public bool CountedBudgetsOff { get; init; }

    /// <summary>When true (<c>PERF_BASE_COMMIT=none</c>), the paired budgets were turned off on purpose: not measured, and not a failure even under CI.</summary>
    public bool PairingOff { get; init; }

    /// <summary>
    /// The commit the paired budgets compare with (<c>PERF_BASE_COMMIT</c>: a branch, tag or hash), or null to choose it from
    /// the working tree (<see cref="Measuring.BaseBuild"/>). A base named here is taken even when its tree is the head's.
    /// </summary>
    public string? BaseCommit { get; init; }

    /// <summary>
    /// The share of the machine's CPU other processes may take while a timed, unpaired budget (a rate, a latency, a
    /// CPU time per request) is measured, and its breaking still be judged a regression: 0.25 by default. Past it, a
    /// run that broke only such budgets in its last attempt reports them as not measured, with the share, for the
    /// neighbours' load made that figure as much as the code did (<see cref="BudgetGate.CheckRunAsync{T}"/>). 1 turns
    /// the rule off. Read from <c>/proc</c> on Linux; elsewhere the share is unknown and every break is judged.
    /// </summary>
    public double MaxNeighbourCpuShare { get; init; } = 0.25;

    // The neighbours' share over an attempt, for a test that supplies its own; null reads /proc (NeighbourCpu.Window).
    internal Func<Func<double?>>? NeighbourWindow { get; init; }

    /// <summary>
    /// How many base commits' trees and builds <c>artifacts/base/</c> keeps, the newest (<c>PERF_BASE_KEEP</c>, default
    /// 3, at least 1): older ones are deleted when another base is built.
    /// </summary>
    public int BasesKept { get; init; } = 3;

    // The paired budgets' base for a test that supplies its own; null finds it with git (BaseBuild.TryResolve).
    internal Func<BaseSelection, (BaseBuild? Base, string Reason)>? BaseResolver { get; init; }

    /// <summary>
    /// When true (the default), a budget whose kind depends on code generation is refused with
    /// <see cref="Measuring.NonOptimizedBuildException"/> on a Debug build. Only tests of the gate's own arithmetic
    /// turn it off.
    /// </summary>
    public bool RequireOptimizedBuild { get; init; } = true;

    /// <summary>
    /// The run the results belong to in <c>history.jsonl</c> (results of one run, from several test processes, share
    /// it); null generates one per process (its UTC start time and a random suffix).
    /// </summary>
    public string? RunId { get; init; }

    /// <summary>The commit measured, written to <c>history.jsonl</c> beside each result; null writes none (git is not run for it).</summary>
    public string? Commit { get; init; }

    /// <summary>
    /// A file (GitHub Actions' <c>GITHUB_STEP_SUMMARY</c>) each test process appends its summary table to as it exits,
    /// or null for none.
    /// </summary>
    public string? StepSummaryFile { get; init; }

    /// <summary>Where baseline warnings go; standard error unless a test framework's sink is given.</summary>
    public IBudgetWarningSink Warnings { get; init; } = StandardErrorWarnings.Instance;

    /// <summary>
    /// The options the environment asks for (<see cref="HarnessEnvironment.Variables"/> lists every variable):
    /// <c>PERF_BUDGETS_FILE</c>, <c>PERF_PROFILE</c>, <c>PERF_TARGET_FRAMEWORK</c>, <c>PERF_ARTIFACTS_DIR</c>, <c>PERF_BASELINE</c>,
    /// <c>PERF_BASELINE_STRICT</c>, <c>PERF_RECORDING_STRICT</c>, <c>PERF_DIAGNOSE</c>, <c>CI</c>, <c>PERF_INSTRUCTIONS</c>,
    /// <c>PERF_BASE_COMMIT</c>, <c>PERF_RUN_ID</c>, <c>PERF_COMMIT</c> (else <c>GITHUB_SHA</c>) and <c>GITHUB_STEP_SUMMARY</c>.
    /// The only place the gate's settings are read from the environment: a gate decides from its options alone. What
    /// the environment says of the machine rather than of the gate (where <c>dotnet</c>, <c>valgrind</c> and the
    /// measurement lock are) is read by the meters that start those processes.
    /// </summary>
    public static BudgetGateOptions FromEnvironment() => new()
    {
        BudgetsFile = HarnessEnvironment.BudgetsFile,
        Profile = HarnessEnvironment.Profile,
        TargetFramework = HarnessEnvironment.TargetFramework,
        ResultsDirectory = HarnessEnvironment.ResultsDirectory,
        BaselineFile = HarnessEnvironment.Baseline,
        BaselineStrict = HarnessEnvironment.BaselineStrict,
        RecordingStrict = HarnessEnvironment.RecordingStrict,
        DiagnoseAlways = HarnessEnvironment.DiagnoseAlways,
        IsCi = HarnessEnvironment.IsCi,
        CountedBudgetsOff = HarnessEnvironment.CountedBudgetsOff,
        PairingOff = HarnessEnvironment.PairingOff,
        BaseCommit = HarnessEnvironment.PairingOff ? null : HarnessEnvironment.Base,
        BasesKept = HarnessEnvironment.BaseKeep,
        RunId = HarnessEnvironment.RunId,
        Commit = HarnessEnvironment.Commit,
        StepSummaryFile = HarnessEnvironment.StepSummaryFile,
    };

    /// <summary>
    /// Refuses options a gate cannot work with, naming the setting (and its environment variable) in the message: an
    /// empty profile, a path, run id or commit that is only white space, a diagnosis timeout that is not positive, a
    /// floor factor below 1 or not a number, no warning sink. <see cref="BudgetGate"/> calls it once, as it is created.
    /// </summary>
    /// <exception cref="ArgumentException">A setting is out of range; the message names it.</exception>
    public void Validate()
    {
        if (string.IsNullOrWhiteSpace(Profile))
        {
            throw Invalid($"{nameof(Profile)} ({HarnessEnvironment.ProfileVariable}) is empty: name a profile of the budget file, e.g. {HarnessEnvironment.DefaultProfile}.");
        }

        NotBlank(BudgetsFile, nameof(BudgetsFile), HarnessEnvironment.BudgetsFileVariable, "a path, or null for the nearest budgets.json");
        NotBlank(ResultsDirectory, nameof(ResultsDirectory), HarnessEnvironment.ResultsDirectoryVariable, "a folder, or null for artifacts/budgets beside the budget file");
        NotBlank(BaselineFile, nameof(BaselineFile), HarnessEnvironment.BaselineVariable, "the results.json of an earlier run, or null for none");
        NotBlank(StepSummaryFile, nameof(StepSummaryFile), HarnessEnvironment.StepSummaryVariable, "a file, or null for none");
        NotBlank(RunId, nameof(RunId), HarnessEnvironment.RunIdVariable, "an id, or null to generate one");
        NotBlank(Commit, nameof(Commit), HarnessEnvironment.CommitVariable, "a commit, or null for none");
        if (DiagnosisTimeout <= TimeSpan.Zero && DiagnosisTimeout != Timeout.InfiniteTimeSpan)
        {
            throw Invalid($"{nameof(DiagnosisTimeout)} is {DiagnosisTimeout}: a diagnosis needs a positive time (or Timeout.InfiniteTimeSpan).");
        }

        if (double.IsNaN(FloorFactor) || FloorFactor < 1)
        {
            throw Invalid($"{nameof(FloorFactor)} is {FloorFactor}: a floor is set a factor of at least 1 below the runs ({DefaultFloorFactor} by default; PositiveInfinity never warns).");
        }

        if (Warnings is null)
        {
            throw Invalid($"{nameof(Warnings)} is null: give a sink, or leave the default (standard error).");
        }

        if (double.IsNaN(MaxNeighbourCpuShare) || MaxNeighbourCpuShare <= 0 || MaxNeighbourCpuShare > 1)
        {
            throw Invalid($"{nameof(MaxNeighbourCpuShare)} is {MaxNeighbourCpuShare}: give a share of the machine's CPU above 0 and up to 1 (0.25 by default; 1 turns the rule off).");
        }

        if (BasesKept < 1)
        {
            throw Invalid($"{nameof(BasesKept)} ({HarnessEnvironment.BaseKeepVariable}) is {BasesKept}: keep at least the base in use, 1 or more (3 by default).");
        }
    }

    private static void NotBlank(string? value, string setting, string variable, string expected)
    {
        if (value is not null && string.IsNullOrWhiteSpace(value))
        {
            throw Invalid($"{setting} ({variable}) is empty: {expected}.");
        }
    }

    private static ArgumentException Invalid(string message) => new($"BudgetGateOptions.{message}", "options");
}
