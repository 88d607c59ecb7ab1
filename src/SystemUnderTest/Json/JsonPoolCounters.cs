namespace SystemUnderTest.Json;

/// <summary>A snapshot of a pool's counters, so a leak is visible: <see cref="Outstanding"/> must fall back to 0.</summary>
/// <param name="Rented">Buffers handed out since the pool was created.</param>
/// <param name="Returned">Buffers given back since the pool was created.</param>
/// <param name="Dropped">Returned buffers not kept (the pool was at its bound, or the buffer had grown too large).</param>
/// <param name="Retained">Buffers (for RecyclableMemoryStream: blocks and large buffers) held for reuse right now.</param>
public readonly record struct JsonPoolCounters(long Rented, long Returned, long Dropped, long Retained)
{
    /// <summary>Buffers rented and not yet returned: in use now, or leaked.</summary>
    public long Outstanding => Rented - Returned;
}
