using Microsoft.IO;

namespace SystemUnderTest.Json;

/// <summary>
/// Microsoft.IO.RecyclableMemoryStream configured from <see cref="JsonPoolOptions"/>, with the same counters and
/// misuse checks as the other pools. The library pools fixed-size blocks (and large buffers), not streams: each
/// rent creates a small stream object over pooled blocks, which is this strategy's fixed cost per round trip.
/// </summary>
/// <remarks>
/// Bounded by the manager's free-pool limits (<see cref="RecyclableMemoryStreamManager.Options.MaximumSmallPoolFreeBytes"/>
/// = bound × block size); <see cref="RecyclableMemoryStreamManager.Options.ZeroOutBuffer"/> wipes blocks on return so
/// no stale bytes reach the next user; <c>ToArray</c> throws because it would defeat the pool.
/// </remarks>
public sealed class RecyclableStreamPool
{
    private long _rented;
    private long _returned;

    /// <summary>Creates the manager from <paramref name="options"/>.</summary>
    public RecyclableStreamPool(JsonPoolOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        Settings = new RecyclableMemoryStreamManager.Options
        {
            BlockSize = options.InitialBufferBytes,
            LargeBufferMultiple = options.InitialBufferBytes * 4,
            MaximumBufferSize = Math.Max(options.MaximumRetainedBufferBytes, options.InitialBufferBytes * 4),
            MaximumSmallPoolFreeBytes = (long)options.MaximumRetainedBuffers * options.InitialBufferBytes,
            MaximumLargePoolFreeBytes = 4L * options.MaximumRetainedBufferBytes,
            ZeroOutBuffer = true,
            ThrowExceptionOnToArray = true,
        };
        Manager = new RecyclableMemoryStreamManager(Settings);
    }

    /// <summary>The library's manager.</summary>
    public RecyclableMemoryStreamManager Manager { get; }

    /// <summary>The manager's options (the bound is <c>MaximumSmallPoolFreeBytes</c> and <c>MaximumLargePoolFreeBytes</c>).</summary>
    public RecyclableMemoryStreamManager.Options Settings { get; }

    /// <summary>The most blocks the small pool keeps.</summary>
    public long BoundBlocks => Settings.MaximumSmallPoolFreeBytes / Settings.BlockSize;

    /// <summary>The pool's counters; <see cref="JsonPoolCounters.Retained"/> counts free blocks plus free large buffers.</summary>
    public JsonPoolCounters Counters => new(Interlocked.Read(ref _rented), Interlocked.Read(ref _returned), 0, Manager.SmallBlocksFree + Manager.LargeBuffersFree);

    /// <summary>Hands out an empty stream over pooled blocks.</summary>
    public RecyclableMemoryStream Rent()
    {
        var stream = Manager.GetStream();
        Interlocked.Increment(ref _rented);
        return stream;
    }

    /// <summary>Disposes the stream, which gives its blocks back to the manager.</summary>
    /// <exception cref="JsonPoolMisuseException">The stream was already returned (disposed), or belongs to another manager.</exception>
    public void Return(RecyclableMemoryStream stream)
    {
        ArgumentNullException.ThrowIfNull(stream);

        // A disposed RecyclableMemoryStream reports CanRead false; its own double dispose only raises an event.
        if (!stream.CanRead)
        {
            throw new JsonPoolMisuseException("A RecyclableMemoryStream was returned twice (or disposed before it was returned).");
        }

        stream.Dispose();
        Interlocked.Increment(ref _returned);
    }
}
