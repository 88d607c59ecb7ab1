using PerfBudgets.Budgets;

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

    // The floor policy's factor, shared with the tool's proposals so that the warning and the proposal agree.
    internal const double DefaultFloorFactor = 1.5;

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

    /// <summary>
    /// When true (the default), a budget whose kind depends on code generation is refused with
    /// <see cref="Measuring.NonOptimizedBuildException"/> on a Debug build. Only tests of the gate's own arithmetic
    /// turn it off.
    /// </summary>
    public bool RequireOptimizedBuild { get; init; } = true;

    /// <summary>Where baseline warnings go; standard error unless a test framework's sink is given.</summary>
    public IBudgetWarningSink Warnings { get; init; } = StandardErrorWarnings.Instance;

    /// <summary>
    /// The options the environment asks for (<see cref="HarnessEnvironment.Variables"/> lists every variable):
    /// <c>PERF_BUDGETS_FILE</c>, <c>PERF_PROFILE</c>, <c>PERF_ARTIFACTS_DIR</c>, <c>PERF_BASELINE</c>,
    /// <c>PERF_BASELINE_STRICT</c>, <c>PERF_RECORDING_STRICT</c>, <c>PERF_DIAGNOSE</c>, <c>CI</c> and <c>PERF_INSTRUCTIONS</c>.
    /// </summary>
    public static BudgetGateOptions FromEnvironment() => new()
    {
        BudgetsFile = HarnessEnvironment.BudgetsFile,
        Profile = HarnessEnvironment.Profile,
        ResultsDirectory = HarnessEnvironment.ResultsDirectory,
        BaselineFile = HarnessEnvironment.Baseline,
        BaselineStrict = HarnessEnvironment.BaselineStrict,
        RecordingStrict = HarnessEnvironment.RecordingStrict,
        DiagnoseAlways = HarnessEnvironment.DiagnoseAlways,
        IsCi = HarnessEnvironment.IsCi,
        CountedBudgetsOff = HarnessEnvironment.CountedBudgetsOff,
    };
}
