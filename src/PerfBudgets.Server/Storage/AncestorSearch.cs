namespace PerfBudgets.Server.Storage;

/// <summary>
/// The bounds of one nearest-ancestor search (<see cref="IResultsStorage.NearestAncestorWithRunAsync"/>): the commit
/// graph is whatever uploads sent, so a writer can send one built to be expensive to walk (cycles, or a thousand
/// commits each naming sixteen of the others); each bound alone keeps a walk of it from stalling the readers.
/// </summary>
/// <param name="MaxDepth">The most generations walked back.</param>
/// <param name="MaxRows">The most (commit, distance) rows the walk visits in all, however wide the graph.</param>
/// <param name="Timeout">How long the walk may take before it is stopped, whatever its rows.</param>
internal sealed record AncestorSearch(int MaxDepth, int MaxRows, TimeSpan Timeout)
{
    /// <summary>The bounds <paramref name="options"/> sets.</summary>
    public static AncestorSearch From(ResultsServerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new AncestorSearch(options.MaxAncestorDepth, options.MaxAncestorRows, options.AncestorSearchTimeout);
    }
}
