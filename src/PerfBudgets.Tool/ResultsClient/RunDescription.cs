namespace PerfBudgets.Tool.ResultsClient;

/// <summary>What an uploaded run measured and where: the fields the server keeps beside its results.json.</summary>
internal sealed record RunDescription(
    string Commit,
    string Branch,
    IReadOnlyList<string> Parents,
    string Runtime,
    string? ValgrindVersion,
    string Machine)
{
    /// <summary>Earlier commits with their parents (<see cref="GitAncestry"/>), for the server's commit graph.</summary>
    public IReadOnlyList<(string Commit, string[] Parents)> Ancestry { get; init; } = [];

    /// <summary>
    /// The upload's <c>Idempotency-Key</c>, the same on every retry of it so that the server stores the run once; null
    /// makes a new GUID per upload.
    /// </summary>
    public string? IdempotencyKey { get; init; }
}
