namespace SystemUnderTest.HPack;

/// <summary>The choices of an <see cref="HPackEncoder"/>.</summary>
public sealed class HPackEncoderOptions
{
    /// <summary>
    /// The dynamic table size the encoder uses from the first block. It must not exceed the peer's
    /// SETTINGS_HEADER_TABLE_SIZE; when it differs from the protocol's initial 4,096 the encoder announces it with a
    /// size update at the start of the first block. 0 disables the dynamic table.
    /// </summary>
    public int MaxDynamicTableSize { get; init; } = HPackDecoderOptions.DefaultMaxDynamicTableSize;

    /// <summary>Huffman-code a string literal when that makes it shorter (RFC 7541 section 5.2). Default true.</summary>
    public bool UseHuffman { get; init; } = true;

    /// <summary>Throws <see cref="ArgumentOutOfRangeException"/> for a negative table size.</summary>
    public void Validate() => ArgumentOutOfRangeException.ThrowIfNegative(MaxDynamicTableSize);
}
