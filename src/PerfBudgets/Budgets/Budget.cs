namespace PerfBudgets.Budgets;

/// <summary>One budget from <c>budgets.json</c>, with the limit already resolved for the active profile.</summary>
/// <param name="Name">Permanent identifier, e.g. <c>Api.DelayAsync.ServerBytesPerRequest</c>.</param>
/// <param name="Kind">One of <see cref="BudgetKind.All"/>; it fixes the <see cref="Direction"/>.</param>
/// <param name="Limit">The limit for <paramref name="Profile"/>.</param>
/// <param name="Unit">Unit of the measurement and the limit, e.g. <c>B/request</c>.</param>
/// <param name="Profile">The profile the limit was resolved for.</param>
/// <param name="Description">Why the budget exists and how its limit was set.</param>
public sealed record Budget(
    string Name,
    BudgetKind Kind,
    double Limit,
    string Unit,
    string Profile,
    string Description)
{
    /// <summary>Which side of its limit a measurement must stay on, from the kind.</summary>
    public BudgetDirection Direction => Kind.Direction;

    /// <summary>The budget's own noise threshold (<c>noise</c> in the file), overriding its kind's; null when it has none.</summary>
    public double? Noise { get; init; }

    /// <summary>
    /// The budget's absolute noise floor (in its unit): its own <c>noiseAbsolute</c>, else its kind's in the file's
    /// <c>noiseAbsolute</c> object, else 0; a change no larger is never flagged.
    /// </summary>
    public double NoiseAbsolute { get; init; }

    /// <summary>
    /// For a counted budget (<see cref="BudgetKind.IsCounted"/> of its kind): the count it was recorded at (<c>recorded</c>), from which
    /// the limit is derived with <see cref="Margin"/>; null for other kinds.
    /// </summary>
    public double? Recorded { get; init; }

    /// <summary>For a counted budget: the fraction above <see cref="Recorded"/> that the limit allows (<c>margin</c>, 0.01 reads as 1%).</summary>
    public double? Margin { get; init; }

    /// <summary>
    /// For a counted budget: a margin in the budget's unit added to the fractional one (<c>marginAbsolute</c>, 0 when
    /// absent), for counts whose noise comes in whole units: a stray system call per repetition weighs the same above a
    /// recording of 0 as above one of 13.
    /// </summary>
    public double MarginAbsolute { get; init; }

    /// <summary>
    /// For a paired budget (<c>vs-base-ratio-max</c>, <c>vs-base-ratio-min</c>): how its interval is judged against the
    /// limit (<c>pairedRule</c>, <see cref="PairedRule.Catch"/> when absent).
    /// </summary>
    public PairedRule PairedRule { get; init; }

    /// <summary>For a counted budget: the runtime and Valgrind versions it was recorded with (<c>recordedOn</c>).</summary>
    public RecordedVersions? RecordedOn { get; init; }

    /// <summary>
    /// The target framework whose <c>runtimes</c> entry gave this budget its limit (e.g. <c>net8.0</c>), or null when the
    /// budget's own fields apply.
    /// </summary>
    public string? TargetFramework { get; init; }

    /// <summary>
    /// The budget's key in <c>budgets.methods.json</c>: its name, or <c>NAME (net8.0)</c> for the breakdown recorded
    /// with a runtimes entry (<c>perfbudgets record --framework</c>), so a failure on one runtime is compared with that
    /// runtime's recording.
    /// </summary>
    internal string RecordedMethodsKey => TargetFramework is null ? Name : $"{Name} ({TargetFramework})";

    /// <summary>True when <paramref name="measured"/> is within the limit.</summary>
    public bool IsMet(double measured) => Kind.IsMet(measured, Limit);
}
