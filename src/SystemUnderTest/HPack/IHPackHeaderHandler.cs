namespace SystemUnderTest.HPack;

/// <summary>
/// Receives the headers of a block from <see cref="HPackDecoder"/>. The spans are valid only during the call:
/// they may be slices of the caller's input or of the decoder's reused buffers.
/// </summary>
internal interface IHPackHeaderHandler
{
    /// <summary>A header whose name and value are given as bytes (literals and dynamic-table hits).</summary>
    void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value);

    /// <summary>
    /// A static-table hit (RFC 7541 Appendix A): name and value are <see cref="StaticTable"/> entry
    /// <paramref name="index"/> (1-61), so a handler can map it to a known header without comparing bytes.
    /// </summary>
    void OnStaticIndexedHeader(int index);

    /// <summary>A literal whose name is static-table entry <paramref name="index"/> (1-61).</summary>
    void OnStaticIndexedHeader(int index, ReadOnlySpan<byte> value);
}
