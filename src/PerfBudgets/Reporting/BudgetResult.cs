using System.Text.Json.Serialization;

namespace PerfBudgets.Reporting;

/// <summary>One recorded measurement, written to <c>results.json</c> whether it passed or not.</summary>
/// <param name="Budget">Budget name (or the name of an informational figure).</param>
/// <param name="Kind">Budget kind, or <c>info</c>.</param>
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
    /// <summary>The comparison with the baseline run (<c>PERF_BASELINE</c>), or null when no baseline was given.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public BaselineComparison? Baseline { get; init; }
}
