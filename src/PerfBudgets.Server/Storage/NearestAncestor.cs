namespace PerfBudgets.Server.Storage;

/// <summary>What a nearest-ancestor search found, and whether one of its bounds stopped it first.</summary>
/// <param name="Commit">The nearest ancestor with a run, or null when none was found within the bounds.</param>
/// <param name="StoppedBy">
/// Null when the walk ended on its own (or at the depth limit, which is the search's definition); else the bound that
/// cut it short (<c>MaxAncestorRows</c>, <c>AncestorSearchTimeout</c>), so a miss can say that a farther ancestor may
/// have a run.
/// </param>
internal sealed record NearestAncestor(string? Commit, string? StoppedBy = null);
