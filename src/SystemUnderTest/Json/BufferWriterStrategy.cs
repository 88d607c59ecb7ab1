using System.Buffers;
using System.Text.Json;

namespace SystemUnderTest.Json;

/// <summary>
/// A pooled <see cref="IBufferWriter{T}"/> with its reused <see cref="Utf8JsonWriter"/>: rent a
/// <see cref="PooledBufferWriter"/>, serialize through its writer, deserialize from the written span, return it.
/// Nothing is allocated but the deserialized graph once the pool is warm.
/// </summary>
public sealed class BufferWriterStrategy(BufferWriterPool pool) : IJsonRoundTripStrategy
{
    /// <inheritdoc />
    public string Name => "BufferWriter";

    /// <summary>The pool.</summary>
    public BufferWriterPool Pool { get; } = pool ?? throw new ArgumentNullException(nameof(pool));

    /// <inheritdoc />
    public JsonPoolCounters Counters => Pool.Counters;

    /// <inheritdoc />
    public T RoundTrip<T>(T value, JsonShape<T> shape, IJsonPayloadObserver? observer = null)
    {
        var buffer = Pool.Rent();
        try
        {
            var writer = buffer.JsonWriter;
            JsonSerializer.Serialize(writer, value, shape.Write);
            writer.Flush();
            observer?.OnSerialized(new ReadOnlySequence<byte>(buffer.WrittenMemory));
            return RoundTripResult.NotNull(JsonSerializer.Deserialize(buffer.WrittenSpan, shape.Read));
        }
        finally
        {
            Pool.Return(buffer);
        }
    }
}
