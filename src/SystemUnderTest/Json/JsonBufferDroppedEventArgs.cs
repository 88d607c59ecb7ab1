namespace SystemUnderTest.Json;

/// <summary>
/// Raised when a pool lets a returned buffer go (RecyclableMemoryStream's habit: events for diagnostics). Frequent
/// drops mean the bound is below the concurrency the service sees, so every drop is a future allocation.
/// </summary>
/// <param name="reason">Why the buffer was not kept.</param>
/// <param name="capacityBytes">The dropped buffer's capacity.</param>
public sealed class JsonBufferDroppedEventArgs(JsonBufferDropReason reason, int capacityBytes) : EventArgs
{
    /// <summary>Why the buffer was not kept.</summary>
    public JsonBufferDropReason Reason { get; } = reason;

    /// <summary>The dropped buffer's capacity in bytes.</summary>
    public int CapacityBytes { get; } = capacityBytes;
}
