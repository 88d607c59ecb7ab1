namespace PerfBudgets.Server.Upload;

/// <summary>One edge list of the commit graph: a commit and its parents (two for a merge).</summary>
internal sealed record CommitParents(string Commit, IReadOnlyList<string> Parents);
