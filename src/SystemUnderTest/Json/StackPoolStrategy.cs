using System.Buffers;
using System.Diagnostics;
using System.Text.Json;

namespace SystemUnderTest.Json;

/// <summary>
/// The seed's pooled design: rent a <see cref="MemoryStream"/> from a <see cref="MemoryStreamStackPool"/>, serialize
/// into it, deserialize from its buffer, return it.
/// </summary>
public sealed class StackPoolStrategy(MemoryStreamStackPool pool) : IJsonRoundTripStrategy
{
    /// <inheritdoc />
    public string Name => "StackPool";

    /// <summary>The pool.</summary>
    public MemoryStreamStackPool Pool { get; } = pool ?? throw new ArgumentNullException(nameof(pool));

    /// <inheritdoc />
    public JsonPoolCounters Counters => Pool.Counters;

    /// <inheritdoc />
    public T RoundTrip<T>(T value, JsonShape<T> shape, IJsonPayloadObserver? observer = null)
    {
        var stream = Pool.Rent();
        try
        {
            JsonSerializer.Serialize(stream, value, shape.Write);
            var gotBuffer = stream.TryGetBuffer(out var written);
            Debug.Assert(gotBuffer, "a pooled MemoryStream is created expandable, so its buffer is always visible");
            observer?.OnSerialized(new ReadOnlySequence<byte>(written.AsMemory()));
            return RoundTripResult.NotNull(JsonSerializer.Deserialize(written.AsSpan(), shape.Read));
        }
        finally
        {
            Pool.Return(stream);
        }
    }
}
