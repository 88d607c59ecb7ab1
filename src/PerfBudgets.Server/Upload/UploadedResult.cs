namespace PerfBudgets.Server.Upload;

/// <summary>One figure of an uploaded run, the columns of <c>results.json</c> the server keeps in its own rows.</summary>
/// <param name="Budget">The budget's name.</param>
/// <param name="Kind">Its kind.</param>
/// <param name="Measured">The figure.</param>
/// <param name="Limit">The limit, null for an informational figure.</param>
/// <param name="Unit">The unit of both.</param>
/// <param name="Verdict">The gate's verdict.</param>
/// <param name="Noise">The entry's <c>noise</c>: the budget's relative noise threshold the gate recorded; null in results.json files from before it did.</param>
/// <param name="NoiseAbsolute">The entry's <c>noiseAbsolute</c>, in the budget's unit; null where absent.</param>
/// <param name="MeasuredUtc">The entry's <c>timestampUtc</c>: when the figure was measured; null where absent or unreadable.</param>
internal sealed record UploadedResult(string Budget, string Kind, double Measured, double? Limit, string Unit, string Verdict,
    double? Noise = null, double? NoiseAbsolute = null, DateTimeOffset? MeasuredUtc = null);
