namespace PerfBudgets.Server.Upload;

/// <summary>One run as uploaded: where and on what it ran, and its <c>results.json</c>.</summary>
/// <param name="Commit">The commit the run measured.</param>
/// <param name="Branch">The branch it was on.</param>
/// <param name="Parents">That commit's parents (two for a merge), for the nearest-ancestor search.</param>
/// <param name="Runtime">The .NET runtime the gate ran on.</param>
/// <param name="ValgrindVersion">Valgrind's version, or null where the counted budgets were not measured.</param>
/// <param name="Machine">The machine (runner) the figures were measured on.</param>
/// <param name="ResultsJson">The run's <c>results.json</c> as uploaded, kept whole.</param>
/// <param name="Results">Its figures, one per budget.</param>
/// <param name="Ancestry">Parents of earlier commits (from git), so the ancestor search can pass commits never run.</param>
internal sealed record RunUpload(
    string Commit,
    string Branch,
    IReadOnlyList<string> Parents,
    string Runtime,
    string? ValgrindVersion,
    string Machine,
    string ResultsJson,
    IReadOnlyList<UploadedResult> Results,
    IReadOnlyList<CommitParents> Ancestry)
{
    /// <summary>
    /// The upload's <c>Idempotency-Key</c> header, or null: a retry of the same upload sends the same key, and is
    /// answered with the run the first stored.
    /// </summary>
    public string? IdempotencyKey { get; init; }

    /// <summary>
    /// The SHA-256 of the write token the upload was authorized with, or null (a run stored by the server itself): the
    /// run is written only if it is still the project's token then, so a token revoked while the body was arriving
    /// stores nothing.
    /// </summary>
    public byte[]? WriteTokenSha256 { get; init; }
}
