namespace PerfBudgets.Server.Storage;

/// <summary>
/// One budget of a project's latest run on a branch: its figure against its limit, the verdict the gate gave, and the
/// run it comes from. Field names follow <c>results.json</c> (<c>budget, kind, unit, measured, limit, verdict</c>).
/// </summary>
/// <param name="Budget">The budget's name.</param>
/// <param name="Kind">Its kind (e.g. <c>allocated-bytes-per-op</c>).</param>
/// <param name="Unit">The unit of <paramref name="Measured"/> and <paramref name="Limit"/>.</param>
/// <param name="Measured">The figure the run measured; null where it was not measured (the gate's NaN) or was not finite.</param>
/// <param name="Limit">The limit it was held to, null for an info figure.</param>
/// <param name="Verdict">The gate's verdict: <c>pass, fail, info, warn, not-measured</c>.</param>
/// <param name="RunId">The run's id on the server.</param>
/// <param name="Commit">The commit the run measured.</param>
/// <param name="Branch">The branch it was uploaded from.</param>
/// <param name="UploadedUtc">When the run was uploaded.</param>
internal sealed record BudgetLatest(
    string Budget,
    string Kind,
    string Unit,
    double? Measured,
    double? Limit,
    string Verdict,
    long RunId,
    string Commit,
    string Branch,
    DateTimeOffset UploadedUtc)
{
    /// <summary>The budget's relative noise threshold the run recorded with the figure (results.json's <c>noise</c>); null where it did not.</summary>
    public double? Noise { get; init; }

    /// <summary>The budget's absolute noise floor the run recorded (results.json's <c>noiseAbsolute</c>, in its unit); null where it did not.</summary>
    public double? NoiseAbsolute { get; init; }

    /// <summary>True when the gate failed this budget in that run.</summary>
    public bool Failed => Verdict == "fail";
}
