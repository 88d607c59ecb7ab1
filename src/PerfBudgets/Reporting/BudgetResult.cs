using System.Text.Json.Serialization;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting;

/// <summary>One recorded measurement, written to <c>results.json</c> whether it passed or not.</summary>
/// <param name="Budget">Budget name (or the name of an informational figure).</param>
/// <param name="Kind">The budget kind's name, or <see cref="InfoKind"/> for a figure recorded but not gated.</param>
/// <param name="Measured">What the run measured.</param>
/// <param name="Limit">The limit in force, or null for an informational figure.</param>
/// <param name="Unit">Unit of both.</param>
/// <param name="Verdict">Pass, fail or info.</param>
/// <param name="Profile">The active profile.</param>
/// <param name="TimestampUtc">When it was measured.</param>
/// <param name="Machine">Where it was measured.</param>
/// <param name="Detail">Optional context (sample size, the figures a ratio came from).</param>
/// <param name="Attribution">What broke a failing budget, when the check was given a diagnosis; null otherwise.</param>
public sealed record BudgetResult(
    string Budget,
    string Kind,
    double Measured,
    double? Limit,
    string Unit,
    BudgetVerdict Verdict,
    string Profile,
    DateTimeOffset TimestampUtc,
    MachineInfo Machine,
    string? Detail,
    Attribution? Attribution = null)
{
    /// <summary>The kind of a figure that is recorded for contrast but not gated (<c>BudgetGate.Observe</c>).</summary>
    public const string InfoKind = "info";

    /// <summary>
    /// Which side of <see cref="Limit"/> the figure must stay on, from its kind; null for a figure that is not gated.
    /// Written to <c>results.json</c> for other readers, and always taken from the kind when read back.
    /// </summary>
    public BudgetDirection? Direction => BudgetKind.TryParse(Kind, out var kind) ? kind.Direction : null;

    /// <summary>True when the figure is within its limit; false for an unmeasured or ungated figure.</summary>
    /// <remarks>Derived from the figures, so not written to <c>results.json</c>.</remarks>
    [JsonIgnore]
    public bool IsWithinLimit => Limit is { } limit && BudgetKind.TryParse(Kind, out var kind) && kind.IsMet(Measured, limit);

    /// <summary>
    /// The budget's relative noise threshold as budgets.json gives it (<c>noise</c>: for an at-most kind the rise, for
    /// an at-least kind the drop, that unchanged runs show), recorded with the figure so that a reader without that
    /// budgets.json (the results server) knows it; null for an informational figure, a budget the file gives no
    /// threshold, and every entry of a results.json written before it was recorded.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? Noise { get; init; }

    /// <summary>The budget's absolute noise floor in its unit (budgets.json's <c>noiseAbsolute</c>, 0 for most), recorded with <see cref="Noise"/>.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? NoiseAbsolute { get; init; }

    /// <summary>
    /// The run that recorded the result (<see cref="RunIdentity.RunId"/>), so that a report of a folder a later,
    /// filtered run wrote into can tell its rows from that run's; null in a results.json written before it was kept.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    [JsonInclude]
    internal string? RunId { get; init; }

    /// <summary>The comparison with the baseline run (<c>PERF_BASELINE</c>), or null when no baseline was given.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    [JsonInclude]
    public BaselineComparison? Baseline { get; internal init; }

    /// <summary>The sign the limit is shown with in reports: ≥ for a floor, ≤ for a ceiling.</summary>
    [JsonIgnore]
    public string ComparisonSign => Direction == BudgetDirection.AtLeast ? "≥" : "≤";
}
