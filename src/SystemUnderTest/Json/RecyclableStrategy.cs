using System.Text.Json;

namespace SystemUnderTest.Json;

/// <summary>
/// Microsoft.IO.RecyclableMemoryStream: serialize into a stream over pooled blocks, deserialize from its
/// <c>ReadOnlySequence</c> (no copy into one contiguous array), dispose it to give the blocks back.
/// </summary>
public sealed class RecyclableStrategy(RecyclableStreamPool pool, EmployeeJson json) : IJsonRoundTripStrategy
{
    private readonly JsonReaderOptions _readerOptions = (json ?? throw new ArgumentNullException(nameof(json))).ReaderOptions;

    /// <inheritdoc />
    public string Name => "Recyclable";

    /// <summary>The pool.</summary>
    public RecyclableStreamPool Pool { get; } = pool ?? throw new ArgumentNullException(nameof(pool));

    /// <inheritdoc />
    public JsonPoolCounters Counters => Pool.Counters;

    /// <inheritdoc />
    public T RoundTrip<T>(T value, JsonShape<T> shape, IJsonPayloadObserver? observer = null)
    {
        var stream = Pool.Rent();
        try
        {
            JsonSerializer.Serialize(stream, value, shape.Write);
            var written = stream.GetReadOnlySequence();
            observer?.OnSerialized(written);
            var reader = new Utf8JsonReader(written, _readerOptions);
            return RoundTripResult.NotNull(JsonSerializer.Deserialize(ref reader, shape.Read));
        }
        finally
        {
            Pool.Return(stream);
        }
    }
}
