using System.Collections.Concurrent;

namespace PerfBudgets.Server.Changes;

/// <summary>
/// Change points computed once per upload, not once per request: each answer (the changes endpoint's, a budget page's
/// marks) is kept under its question and the project's <see cref="Storage.IResultsStorage.RunsVersionAsync"/> (its
/// newest run id and number of runs), which an upload or a pruning changes.
/// </summary>
/// <remarks>
/// When the runs have changed, the new answer is computed once, on the thread pool; a reader waits for it at most
/// <see cref="ResultsServerOptions.ChangePointWait"/> and is then given the previous answer (stale by that upload), so
/// that readers do not hold the server's read slots (<see cref="ResultsServerOptions.MaxConcurrentReads"/>) for as long
/// as a search over a long history takes on a busy machine, and a burst of readers after an upload costs one search.
/// The first question of all waits for its answer. Kept in this
/// process's memory: several server processes each compute once per upload. At most
/// <see cref="ResultsServerOptions.MaxCachedChangeSets"/> questions are kept; past that the cache starts again empty,
/// which bounds its memory whatever questions (branches, <c>minShift</c> values) readers make up.
/// </remarks>
internal sealed class ChangePointCache(int capacity, TimeSpan freshWait)
{
    private readonly ConcurrentDictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private int _computed;

    /// <summary>How many answers were computed rather than found (for tests and the load test).</summary>
    public int Computed => _computed;

    /// <summary>
    /// The answer to <paramref name="question"/> at <paramref name="version"/>, or the previous version's when that is
    /// not computed within the wait; <paramref name="compute"/> runs once per version.
    /// </summary>
    public async Task<T> GetOrComputeAsync<T>(string question, (long NewestRunId, long Runs) version, Func<Task<T>> compute)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(compute);
        if (!_entries.TryGetValue(question, out var entry) || entry.Version != version)
        {
            if (_entries.Count >= capacity)
            {
                _entries.Clear();
            }

            var fresh = new Entry(version, new Lazy<Task<object>>(() => Task.Run(async () =>
            {
                Interlocked.Increment(ref _computed);
                return (object)await compute();
            })))
            {
                Previous = entry is null ? null : entry.Answer.IsValueCreated && entry.Answer.Value.IsCompletedSuccessfully ? entry : entry.Previous,
            };
            // Another request may have begun this version meanwhile: then its computation is the one.
            entry = _entries.AddOrUpdate(question, fresh, (_, existing) => existing.Version == version ? existing : fresh);
        }

        var answer = entry.Answer.Value;
        if (!answer.IsCompleted && entry.Previous is { } previous
            && await Task.WhenAny(answer, Task.Delay(freshWait, CancellationToken.None)) != answer)
        {
            return (T)await previous.Answer.Value;
        }

        try
        {
            return (T)await answer;
        }
        catch
        {
            // A failed computation is not kept for the next reader.
            _entries.TryRemove(new KeyValuePair<string, Entry>(question, entry));
            throw;
        }
    }

    private sealed record Entry((long NewestRunId, long Runs) Version, Lazy<Task<object>> Answer)
    {
        /// <summary>The last answered version before this one, given while this one is computed.</summary>
        public Entry? Previous { get; init; }
    }
}
