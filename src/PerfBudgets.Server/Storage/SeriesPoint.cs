namespace PerfBudgets.Server.Storage;

/// <summary>
/// One run's figure of one budget, a point of the budget's series over commits (oldest first), with what the run
/// ran on so that a reader can tell a re-recording or a runtime change from a change in the code.
/// </summary>
/// <param name="RunId">The run's id on the server (upload order).</param>
/// <param name="Commit">The commit the run measured.</param>
/// <param name="Branch">The branch it was uploaded from.</param>
/// <param name="UploadedUtc">When the run was uploaded.</param>
/// <param name="Runtime">The .NET runtime the gate ran on.</param>
/// <param name="ValgrindVersion">Valgrind's version, null where counted budgets were not measured.</param>
/// <param name="Kind">The budget's kind in that run.</param>
/// <param name="Unit">The unit of <paramref name="Measured"/> and <paramref name="Limit"/>.</param>
/// <param name="Measured">The figure; null where it was not measured (the gate's NaN) or was not finite.</param>
/// <param name="Limit">The limit, null for an info figure.</param>
/// <param name="Verdict">The gate's verdict: <c>pass, fail, info, warn, not-measured</c>.</param>
/// <param name="LimitChanged">The limit differs from the previous point's (a re-recording or a reviewed change); false for the first point.</param>
/// <param name="RuntimeChanged">The runtime differs from the previous point's; false for the first point.</param>
internal sealed record SeriesPoint(
    long RunId,
    string Commit,
    string Branch,
    DateTimeOffset UploadedUtc,
    string Runtime,
    string? ValgrindVersion,
    string Kind,
    string Unit,
    double? Measured,
    double? Limit,
    string Verdict,
    bool LimitChanged,
    bool RuntimeChanged)
{
    /// <summary>The budget's relative noise threshold the run recorded with the figure (results.json's <c>noise</c>); null where it did not.</summary>
    public double? Noise { get; init; }

    /// <summary>The budget's absolute noise floor the run recorded (results.json's <c>noiseAbsolute</c>, in its unit); null where it did not.</summary>
    public double? NoiseAbsolute { get; init; }

    /// <summary>When the run measured the figure (results.json's <c>timestampUtc</c>); null where the upload did not say.</summary>
    public DateTimeOffset? MeasuredUtc { get; init; }

    /// <summary>True when the gate failed this budget in that run.</summary>
    public bool Failed => Verdict == "fail";
}
