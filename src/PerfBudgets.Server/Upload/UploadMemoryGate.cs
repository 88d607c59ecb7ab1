namespace PerfBudgets.Server.Upload;

/// <summary>
/// Bounds the bytes of upload bodies the server holds at once (<see cref="ResultsServerOptions.MaxUploadBytesInFlight"/>):
/// an upload reserves its <c>Content-Length</c> (a body without one, <see cref="ResultsServerOptions.MaxUploadBytes"/>)
/// before its body is read, and gives it back when its request ends; one that finds no room waits, oldest first, and
/// is 503 with <c>Retry-After</c> past <see cref="ResultsServerOptions.UploadMemoryWait"/>. Six concurrent 8 MB uploads
/// took the server from 61 MB to 410 MB resident before: each holds its body, its parsed document and the results'
/// text several times over while it is read and written, so the bodies' bytes are what is bounded.
/// </summary>
internal sealed class UploadMemoryGate(long capacity)
{
    private readonly object _lock = new();
    private readonly LinkedList<(long Bytes, TaskCompletionSource<bool> Granted)> _waiting = new();
    private long _reserved;
    private long _peak;

    /// <summary>The most bytes ever reserved at once (for tests).</summary>
    public long PeakBytes
    {
        get
        {
            lock (_lock)
            {
                return _peak;
            }
        }
    }

    /// <summary>
    /// Reserves <paramref name="bytes"/> (at most the whole capacity), waiting up to <paramref name="wait"/>; null when
    /// there was no room in time. Dispose the lease to give the bytes back.
    /// </summary>
    public async Task<IDisposable?> ReserveAsync(long bytes, TimeSpan wait, CancellationToken cancellationToken)
    {
        bytes = Math.Clamp(bytes, 1, capacity);
        TaskCompletionSource<bool> granted;
        LinkedListNode<(long, TaskCompletionSource<bool>)> node;
        lock (_lock)
        {
            if (_waiting.Count == 0 && _reserved + bytes <= capacity)
            {
                Take(bytes);
                return new Lease(this, bytes);
            }

            granted = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            node = _waiting.AddLast((bytes, granted));
        }

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(wait);
        await using (timeout.Token.Register(() => granted.TrySetResult(false)))
        {
            if (await granted.Task)
            {
                return new Lease(this, bytes);
            }
        }

        lock (_lock)
        {
            // Not granted (a grant after the time-out finds the result set and takes nothing): leave the queue, and let
            // those behind in if they now fit.
            if (node.List is not null)
            {
                _waiting.Remove(node);
                GrantWaiting();
            }
        }

        cancellationToken.ThrowIfCancellationRequested();
        return null;
    }

    private void Take(long bytes)
    {
        _reserved += bytes;
        _peak = Math.Max(_peak, _reserved);
    }

    /// <summary>
    /// A lease this large (1 MiB, seventeen times this repository's results.json) is followed by a full, compacting
    /// collection: its garbage (the body, the results' text as read and as stored, tens of MB on the large-object heap
    /// for an 8 MB body) otherwise stays resident until the collector's budget for that heap, which grows with each such
    /// upload, is reached. Six 8 MB uploads one at a time still took the server from 75 MB to 437 MB resident with the
    /// bound alone. Large uploads are rare, and the collection runs on the thread pool, not in the request.
    /// </summary>
    public const long CollectAfterBytes = 1024 * 1024;

    private void Release(long bytes)
    {
        lock (_lock)
        {
            _reserved -= bytes;
            GrantWaiting();
        }

        if (bytes >= CollectAfterBytes)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static _ =>
            {
                System.Runtime.GCSettings.LargeObjectHeapCompactionMode = System.Runtime.GCLargeObjectHeapCompactionMode.CompactOnce;
                GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
            }, null);
        }
    }

    // Oldest first: a large upload at the head is not passed by small ones forever.
    private void GrantWaiting()
    {
        while (_waiting.First is { } first && _reserved + first.Value.Bytes <= capacity)
        {
            _waiting.RemoveFirst();
            if (first.Value.Granted.TrySetResult(true))
            {
                Take(first.Value.Bytes);
            }
        }
    }

    private sealed class Lease(UploadMemoryGate gate, long bytes) : IDisposable
    {
        private int _disposed;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                gate.Release(bytes);
            }
        }
    }
}
