using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// Where a reused count comes from: a Callgrind run of an earlier test run whose inputs (the start of the process,
/// every file in the host's folder, every file the process mapped) were byte for byte the ones of this run, so it
/// would count the same again (<see cref="InstructionMeter.RunProcess"/> says what the key holds).
/// </summary>
/// <param name="MeasuredUtc">When the reused run was counted.</param>
/// <param name="RunId">The test run it was counted in (<c>PERF_RUN_ID</c>, else the <c>dotnet test</c> command's), or null when unknown.</param>
/// <param name="Key">The digest of its inputs, the name of its entry in the store.</param>
public sealed record ReusedCount(DateTimeOffset MeasuredUtc, string? RunId, string Key)
{
    /// <summary>One clause for a result's detail: reused, when and in which run it was counted, and the key.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"reused, not counted again: counted {MeasuredUtc.UtcDateTime:yyyy-MM-dd HH:mm} UTC{(RunId is null ? string.Empty : $" in run {RunId}")} with byte-identical inputs (key {Key[..Math.Min(16, Key.Length)]})");
}
