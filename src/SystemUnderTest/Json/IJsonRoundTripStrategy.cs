
namespace SystemUnderTest.Json;

/// <summary>
/// One way to serialize a value to UTF-8 JSON and deserialize it back (a round trip), the unit the scaling run and
/// the allocation budgets measure. Implementations are thread-safe.
/// </summary>
public interface IJsonRoundTripStrategy
{
    /// <summary>Permanent name, used in tables and budget names (<c>Bytes</c>, <c>StackPool</c>, <c>Recyclable</c>, <c>BufferWriter</c>).</summary>
    string Name { get; }

    /// <summary>The counters of the strategy's pool (all zero for a strategy without a pool).</summary>
    JsonPoolCounters Counters { get; }

    /// <summary>Serializes <paramref name="value"/> and returns the value deserialized from those bytes.</summary>
    /// <param name="value">The value to round-trip.</param>
    /// <param name="shape">Source-generated metadata of <typeparamref name="T"/> for writing and for reading.</param>
    /// <param name="observer">Optional: sees the serialized bytes.</param>
    T RoundTrip<T>(T value, JsonShape<T> shape, IJsonPayloadObserver? observer = null);
}
