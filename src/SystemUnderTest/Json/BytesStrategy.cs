using System.Buffers;
using System.Text.Json;

namespace SystemUnderTest.Json;

/// <summary>
/// The seed's byte[] path: <see cref="JsonSerializer.SerializeToUtf8Bytes{TValue}(TValue, JsonTypeInfo{TValue})"/>,
/// then deserialize from the array. Allocates one array the size of the JSON per round trip, the cost the pooled
/// strategies remove.
/// </summary>
public sealed class BytesStrategy : IJsonRoundTripStrategy
{
    /// <inheritdoc />
    public string Name => "Bytes";

    /// <inheritdoc />
    public JsonPoolCounters Counters => default;

    /// <inheritdoc />
    public T RoundTrip<T>(T value, JsonShape<T> shape, IJsonPayloadObserver? observer = null)
    {
        var utf8Json = JsonSerializer.SerializeToUtf8Bytes(value, shape.Write);
        observer?.OnSerialized(new ReadOnlySequence<byte>(utf8Json));
        return RoundTripResult.NotNull(JsonSerializer.Deserialize(utf8Json, shape.Read));
    }
}
