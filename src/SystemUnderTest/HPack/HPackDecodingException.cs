namespace SystemUnderTest.HPack;

/// <summary>
/// The one exception type <see cref="HPackDecoder"/> raises for bad input (RFC 7541 section 2.3 calls this a
/// decoding error, which HTTP/2 turns into a connection error of type COMPRESSION_ERROR). The message names what
/// was wrong and the byte offset within the header block.
/// </summary>
public sealed class HPackDecodingException : Exception
{
    /// <summary>Creates an exception with a generic message.</summary>
    public HPackDecodingException()
        : base("HPACK decoding error.")
    {
    }

    /// <summary>Creates an exception with <paramref name="message"/>.</summary>
    public HPackDecodingException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with <paramref name="message"/> wrapping a lower-level cause.</summary>
    public HPackDecodingException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Creates an exception whose message ends with the byte offset in the header block.</summary>
    public HPackDecodingException(string message, long blockOffset)
        : base($"{message} (header block byte offset {blockOffset})")
    {
        BlockOffset = blockOffset;
    }

    /// <summary>The byte offset within the header block where the problem was found, or -1 when unknown.</summary>
    public long BlockOffset { get; } = -1;
}
