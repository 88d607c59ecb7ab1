using System.Collections.Concurrent;

namespace PerfBudgets.Server.Changes;

/// <summary>
/// Change points computed once per upload, not once per request: each answer (the changes endpoint's, a budget page's
/// marks) is kept under its question and the project's <see cref="Storage.IResultsStorage.RunsVersionAsync"/> (its
/// newest run id and number of runs), which an upload or a pruning changes. Requests that ask the same question at
/// once share one computation, so a burst of anonymous readers costs one pass over the history, not one each.
/// </summary>
/// <remarks>
/// Kept in this process's memory: several server processes each compute once per upload. At most
/// <see cref="ResultsServerOptions.MaxCachedChangeSets"/> answers are kept; past that the cache starts again empty,
/// which bounds its memory whatever questions (branches, <c>minShift</c> values) readers make up.
/// </remarks>
internal sealed class ChangePointCache(int capacity)
{
    private readonly ConcurrentDictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private int _computed;

    /// <summary>How many answers were computed rather than found (for tests and the load test).</summary>
    public int Computed => _computed;

    /// <summary>The answer to <paramref name="question"/> at <paramref name="version"/>, computed by <paramref name="compute"/> only if not kept.</summary>
    public async Task<T> GetOrComputeAsync<T>(string question, (long NewestRunId, long Runs) version, Func<Task<T>> compute)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(compute);
        if (_entries.TryGetValue(question, out var kept) && kept.Version == version)
        {
            return (T)await kept.Answer.Value;
        }

        if (_entries.Count >= capacity)
        {
            _entries.Clear();
        }

        var entry = new Entry(version, new Lazy<Task<object>>(async () =>
        {
            Interlocked.Increment(ref _computed);
            return await compute();
        }));
        // Another request may have put this version in meanwhile: then its computation is shared.
        var current = _entries.AddOrUpdate(question, entry, (_, existing) => existing.Version == version ? existing : entry);
        try
        {
            return (T)await current.Answer.Value;
        }
        catch
        {
            // A failed computation (a cancelled request) is not kept for the next one.
            _entries.TryRemove(new KeyValuePair<string, Entry>(question, current));
            throw;
        }
    }

    private sealed record Entry((long NewestRunId, long Runs) Version, Lazy<Task<object>> Answer);
}
