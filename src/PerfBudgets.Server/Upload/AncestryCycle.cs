namespace PerfBudgets.Server.Upload;

/// <summary>
/// Finds a cycle in the commit graph one upload sends (the run's commit with its parents, and its ancestry): git
/// makes none, so one is a made-up graph, refused before it is stored where every ancestor search would walk it.
/// </summary>
internal static class AncestryCycle
{
    /// <summary>A commit on a cycle of <paramref name="graph"/>'s edges (a commit naming itself included), or null.</summary>
    public static string? Find(IEnumerable<CommitParents> graph)
    {
        ArgumentNullException.ThrowIfNull(graph);
        var parents = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        foreach (var commit in graph)
        {
            if (!parents.TryGetValue(commit.Commit, out var list))
            {
                parents[commit.Commit] = list = [];
            }

            list.AddRange(commit.Parents);
        }

        // Depth first without recursion (an ancestry is a thousand commits deep): a commit met again while it is
        // still on the path is on a cycle.
        var state = new Dictionary<string, bool>(StringComparer.Ordinal); // false: on the path; true: done
        foreach (var start in parents.Keys)
        {
            if (state.ContainsKey(start))
            {
                continue;
            }

            var path = new Stack<(string Commit, int Next)>();
            path.Push((start, 0));
            state[start] = false;
            while (path.Count > 0)
            {
                var (commit, next) = path.Pop();
                var own = parents.GetValueOrDefault(commit);
                if (own is null || next == own.Count)
                {
                    state[commit] = true;
                    continue;
                }

                path.Push((commit, next + 1));
                var parent = own[next];
                if (!state.TryGetValue(parent, out var done))
                {
                    state[parent] = false;
                    path.Push((parent, 0));
                }
                else if (!done)
                {
                    return parent;
                }
            }
        }

        return null;
    }
}
