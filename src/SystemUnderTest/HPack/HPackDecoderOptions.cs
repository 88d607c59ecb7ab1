namespace SystemUnderTest.HPack;

/// <summary>The limits of an <see cref="HPackDecoder"/>. Every limit is checked against the input, never trusted.</summary>
public sealed class HPackDecoderOptions
{
    /// <summary>The protocol's initial SETTINGS_HEADER_TABLE_SIZE (RFC 7540 section 6.5.2).</summary>
    public const int DefaultMaxDynamicTableSize = 4096;

    /// <summary>
    /// The dynamic table size this side announced in SETTINGS_HEADER_TABLE_SIZE; a size update above it is a
    /// decoding error (RFC 7541 section 6.3). Default 4,096.
    /// </summary>
    public int MaxDynamicTableSize { get; init; } = DefaultMaxDynamicTableSize;

    /// <summary>
    /// The most a block may declare, counted as name + value + 32 per header as for SETTINGS_MAX_HEADER_LIST_SIZE
    /// (RFC 7540 section 6.5.2). Default 64 KiB.
    /// </summary>
    public int MaxHeaderListSize { get; init; } = 64 * 1024;

    /// <summary>The longest single string literal, in encoded bytes, the decoder buffers. Default 16 KiB.</summary>
    public int MaxStringLiteralLength { get; init; } = 16 * 1024;

    /// <summary>Throws <see cref="ArgumentOutOfRangeException"/> when a limit is negative or zero where it must be positive.</summary>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegative(MaxDynamicTableSize);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxHeaderListSize);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxStringLiteralLength);
    }
}
