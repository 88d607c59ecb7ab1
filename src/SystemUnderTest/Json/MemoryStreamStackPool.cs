using System.Collections.Concurrent;

namespace SystemUnderTest.Json;

/// <summary>
/// The seed's design: a <see cref="ConcurrentStack{T}"/> of <see cref="MemoryStream"/>s, reset on return. Made safe:
/// bounded by <see cref="JsonPoolOptions.MaximumRetainedBuffers"/>, wiped on return, misuse detected, counted.
/// </summary>
/// <remarks>
/// <see cref="ConcurrentStack{T}.Push(T)"/> allocates a 32-byte node per return; that is the design's fixed cost
/// per round trip and is what its allocation budget allows for. The retained count is kept beside the stack
/// because <see cref="ConcurrentStack{T}.Count"/> walks the whole stack.
/// </remarks>
public sealed class MemoryStreamStackPool
{
    private readonly ConcurrentStack<PooledMemoryStream> _streams = new();
    private readonly JsonPoolOptions _options;
    private long _rented;
    private long _returned;
    private long _dropped;
    private int _retained;

    /// <summary>Creates an empty pool with the limits in <paramref name="options"/>.</summary>
    public MemoryStreamStackPool(JsonPoolOptions options)
    {
        _options = options ?? throw new ArgumentNullException(nameof(options));
    }

    /// <summary>Raised (on the returning thread) when a returned stream is not kept; nothing is allocated without a subscriber.</summary>
    public event EventHandler<JsonBufferDroppedEventArgs>? BufferDropped;

    /// <summary>The pool's counters now.</summary>
    public JsonPoolCounters Counters => new(Interlocked.Read(ref _rented), Interlocked.Read(ref _returned), Interlocked.Read(ref _dropped), Volatile.Read(ref _retained));

    /// <summary>The most streams the pool keeps.</summary>
    public int Bound => _options.MaximumRetainedBuffers;

    /// <summary>Hands out an empty stream (length 0, position 0), pooled or new.</summary>
    public PooledMemoryStream Rent()
    {
        if (_streams.TryPop(out var stream))
        {
            Interlocked.Decrement(ref _retained);
        }
        else
        {
            stream = new PooledMemoryStream(this, _options.InitialBufferBytes);
        }

        stream.MarkRented();
        Interlocked.Increment(ref _rented);
        return stream;
    }

    /// <summary>Takes a stream back; it is wiped, and kept unless the pool is full or the stream grew too large.</summary>
    /// <exception cref="JsonPoolMisuseException">The stream was already returned, or belongs to another pool.</exception>
    public void Return(PooledMemoryStream stream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        if (!ReferenceEquals(stream.Owner, this))
        {
            throw new JsonPoolMisuseException("A PooledMemoryStream was returned to a pool that did not rent it.");
        }

        stream.MarkReturned();
        Interlocked.Increment(ref _returned);
        var tooLarge = stream.Capacity > _options.MaximumRetainedBufferBytes;
        if (tooLarge || Interlocked.Increment(ref _retained) > _options.MaximumRetainedBuffers)
        {
            if (!tooLarge)
            {
                Interlocked.Decrement(ref _retained);
            }

            Interlocked.Increment(ref _dropped);
            BufferDropped?.Invoke(this, new JsonBufferDroppedEventArgs(tooLarge ? JsonBufferDropReason.TooLarge : JsonBufferDropReason.PoolFull, stream.Capacity));
            return;
        }

        _streams.Push(stream);
    }
}
