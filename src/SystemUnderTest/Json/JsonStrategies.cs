namespace SystemUnderTest.Json;

/// <summary>The four round-trip strategies over one set of pools, in the table's order.</summary>
public sealed class JsonStrategies
{
    /// <summary>Creates fresh pools from <paramref name="options"/> and the strategies over them.</summary>
    public JsonStrategies(JsonPoolOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        Json = new EmployeeJson(options);
        Bytes = new BytesStrategy();
        StackPool = new StackPoolStrategy(new MemoryStreamStackPool(options));
        Recyclable = new RecyclableStrategy(new RecyclableStreamPool(options), Json);
        BufferWriter = new BufferWriterStrategy(new BufferWriterPool(options, Json));
        All = [Bytes, StackPool, Recyclable, BufferWriter];
    }

    /// <summary>The serializer settings the strategies share.</summary>
    public EmployeeJson Json { get; }

    /// <summary>The byte[] path.</summary>
    public BytesStrategy Bytes { get; }

    /// <summary>The seed's ConcurrentStack of MemoryStreams.</summary>
    public StackPoolStrategy StackPool { get; }

    /// <summary>RecyclableMemoryStream.</summary>
    public RecyclableStrategy Recyclable { get; }

    /// <summary>The pooled IBufferWriter with a reused Utf8JsonWriter.</summary>
    public BufferWriterStrategy BufferWriter { get; }

    /// <summary>All four, in the order of the scaling table.</summary>
    public IReadOnlyList<IJsonRoundTripStrategy> All { get; }
}
