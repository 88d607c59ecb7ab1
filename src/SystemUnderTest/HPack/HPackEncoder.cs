using System.Diagnostics;

namespace SystemUnderTest.HPack;

/// <summary>
/// An HPACK encoder (RFC 7541) for one connection's header blocks. Headers matching the static table are sent by
/// index; others are added to a dynamic table (hash index over name + value, FIFO eviction, evicted entries pooled
/// and reused) so a repeated header costs one byte. Literals are Huffman-coded only when that is shorter. Sensitive
/// headers are sent never-indexed. A warm encoder does not allocate.
/// </summary>
/// <remarks>
/// Call <see cref="TryBeginHeaderBlock"/> at the start of every block (it writes a pending dynamic table size
/// update, section 4.2), then <see cref="TryEncodeHeader"/> per header. A failed Try call writes nothing that counts
/// and leaves the table unchanged, so the caller can retry with a larger buffer.
/// </remarks>
internal sealed partial class HPackEncoder
{
    // Representation prefixes, RFC 7541 section 6.
    private const byte IndexedFlag = 0x80;            // 1xxxxxxx, 7-bit index (6.1)
    private const byte IncrementalIndexingFlag = 0x40; // 01xxxxxx, 6-bit name index (6.2.1)
    private const byte WithoutIndexingFlag = 0x00;    // 0000xxxx, 4-bit name index (6.2.2)
    private const byte NeverIndexedFlag = 0x10;       // 0001xxxx, 4-bit name index (6.2.3)
    private const byte SizeUpdateFlag = 0x20;         // 001xxxxx, 5-bit size (6.3)
    private const byte HuffmanFlag = 0x80;            // H bit of a string length (5.2)

    // Cookie crumbs shorter than this are guessable by a compression oracle (CRIME); RFC 7541 section 7.1.3 suggests
    // never indexing them.
    private const int ShortCookieLength = 20;

    private readonly bool _useHuffman;
    private int _pendingSize = -1;
    private int _pendingMinimumSize = int.MaxValue;

    /// <summary>Creates an encoder with <paramref name="options"/> (defaults when null).</summary>
    public HPackEncoder(HPackEncoderOptions? options = null)
    {
        options ??= new HPackEncoderOptions();
        options.Validate();
        _useHuffman = options.UseHuffman;
        MaxDynamicTableSize = HPackDecoderOptions.DefaultMaxDynamicTableSize;
        if (options.MaxDynamicTableSize != MaxDynamicTableSize)
        {
            SetMaxDynamicTableSize(options.MaxDynamicTableSize);
        }
    }

    /// <summary>
    /// Changes the dynamic table size, e.g. when the peer's SETTINGS_HEADER_TABLE_SIZE changes (use at most that).
    /// Entries that no longer fit are evicted now; the size update goes out at the start of the next block, preceded
    /// by the smallest size since the last block when the size went down and up again (section 4.2).
    /// </summary>
    public void SetMaxDynamicTableSize(int maxSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxSize);
        _pendingMinimumSize = Math.Min(_pendingMinimumSize, maxSize);
        _pendingSize = maxSize;
        MaxDynamicTableSize = maxSize;
        EvictUntil(maxSize);
    }

    /// <summary>Starts a header block, writing the pending dynamic table size update, if any.</summary>
    public bool TryBeginHeaderBlock(Span<byte> destination, out int bytesWritten)
    {
        bytesWritten = 0;
        if (_pendingSize < 0)
        {
            return true;
        }

        var written = 0;
        if (_pendingMinimumSize < _pendingSize)
        {
            if (!IntegerEncoder.TryEncode(_pendingMinimumSize, 5, SizeUpdateFlag, destination, out written))
            {
                return false;
            }
        }

        if (!IntegerEncoder.TryEncode(_pendingSize, 5, SizeUpdateFlag, destination[written..], out var last))
        {
            return false;
        }

        bytesWritten = written + last;
        _pendingSize = -1;
        _pendingMinimumSize = int.MaxValue;
        return true;
    }

    /// <summary>Encodes one header; false (and no change) when <paramref name="destination"/> is too small.</summary>
    public bool TryEncodeHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, Span<byte> destination, out int bytesWritten)
    {
        if (_pendingSize >= 0)
        {
            throw new InvalidOperationException("A dynamic table size update is pending: call TryBeginHeaderBlock first.");
        }

        var staticNameIndex = StaticTable.FindName(name, value, out var staticFullIndex);
        if (staticFullIndex != 0)
        {
            return IntegerEncoder.TryEncode(staticFullIndex, 7, IndexedFlag, destination, out bytesWritten);
        }

        var sensitive = IsSensitive(name, value);
        var hash = Hash(name, value, out var nameHash);
        if (!sensitive)
        {
            var dynamicFullIndex = FindDynamic(name, value, hash);
            if (dynamicFullIndex != 0)
            {
                return IntegerEncoder.TryEncode(dynamicFullIndex, 7, IndexedFlag, destination, out bytesWritten);
            }
        }

        var nameIndex = staticNameIndex != 0 ? staticNameIndex : FindDynamicName(name, nameHash);
        var entrySize = (long)name.Length + value.Length + DynamicTable.EntryOverhead;
        byte flag;
        int prefix;
        bool index;
        if (sensitive)
        {
            (flag, prefix, index) = (NeverIndexedFlag, 4, false);
        }
        else if (ShouldIndex(name, entrySize))
        {
            (flag, prefix, index) = (IncrementalIndexingFlag, 6, true);
        }
        else
        {
            (flag, prefix, index) = (WithoutIndexingFlag, 4, false);
        }

        if (!TryWriteLiteral(nameIndex, flag, prefix, name, value, destination, out bytesWritten))
        {
            return false;
        }

        if (index)
        {
            Insert(name, value, hash, nameHash, (int)entrySize);
        }

        return true;
    }

    /// <summary>True for the headers RFC 7541 section 7.1 advises never to index.</summary>
    public static bool IsSensitive(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) =>
        name.SequenceEqual("authorization"u8)
        || name.SequenceEqual("proxy-authorization"u8)
        || name.SequenceEqual("set-cookie"u8)
        || (name.SequenceEqual("cookie"u8) && value.Length < ShortCookieLength);

    // Entries bigger than three quarters of the table would evict most of it for one header, and values that are
    // rarely repeated (per-resource paths, lengths, validators) would only push useful entries out. nghttp2 makes the
    // same choices; the raw-data corpus at table size 4096 compresses better with them than without.
    private bool ShouldIndex(ReadOnlySpan<byte> name, long entrySize) =>
        entrySize <= MaxDynamicTableSize * 3L / 4
        && !name.SequenceEqual(":path"u8)
        && !name.SequenceEqual("age"u8)
        && !name.SequenceEqual("content-length"u8)
        && !name.SequenceEqual("etag"u8)
        && !name.SequenceEqual("if-modified-since"u8)
        && !name.SequenceEqual("if-none-match"u8)
        && !name.SequenceEqual("location"u8);

    private bool TryWriteLiteral(int nameIndex, byte flag, int prefix, ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, Span<byte> destination, out int bytesWritten)
    {
        bytesWritten = 0;
        if (!IntegerEncoder.TryEncode(nameIndex, prefix, flag, destination, out var written))
        {
            return false;
        }

        if (nameIndex == 0)
        {
            if (!TryWriteString(name, destination[written..], out var nameBytes))
            {
                return false;
            }

            written += nameBytes;
        }

        if (!TryWriteString(value, destination[written..], out var valueBytes))
        {
            return false;
        }

        bytesWritten = written + valueBytes;
        return true;
    }

    private bool TryWriteString(ReadOnlySpan<byte> s, Span<byte> destination, out int bytesWritten)
    {
        bytesWritten = 0;
        var huffmanLength = _useHuffman ? Huffman.GetEncodedLength(s) : int.MaxValue;
        if (huffmanLength < s.Length)
        {
            if (!IntegerEncoder.TryEncode(huffmanLength, 7, HuffmanFlag, destination, out var lengthBytes)
                || !Huffman.TryEncode(s, destination[lengthBytes..], out var huffmanBytes))
            {
                return false;
            }

            Debug.Assert(huffmanBytes == huffmanLength, "GetEncodedLength agrees with TryEncode");
            bytesWritten = lengthBytes + huffmanBytes;
            return true;
        }

        if (!IntegerEncoder.TryEncode(s.Length, 7, 0, destination, out var rawLengthBytes) || destination.Length - rawLengthBytes < s.Length)
        {
            return false;
        }

        s.CopyTo(destination[rawLengthBytes..]);
        bytesWritten = rawLengthBytes + s.Length;
        return true;
    }
}
