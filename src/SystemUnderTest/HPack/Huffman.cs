using System.Diagnostics;

namespace SystemUnderTest.HPack;

/// <summary>
/// The HPACK Huffman code, RFC 7541 Appendix B. The code is canonical (codes of one length are consecutive and
/// ordered by symbol, shorter codes numerically first), so the table is stored as the code length of each of the
/// 257 symbols and the codes are derived; decoding compares the next bits with the per-length limits.
/// </summary>
internal static class Huffman
{
    /// <summary>The end-of-string symbol (256); it must never be decoded inside a string (section 5.2).</summary>
    public const int EndOfString = 256;

    private const int MaxCodeLength = 30;

    // Code length in bits of symbols 0-256, RFC 7541 Appendix B, in symbol order.
    private static ReadOnlySpan<byte> CodeLengths =>
    [
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, // 0-15
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28, // 16-31
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,         // ' ' - '/'
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,              // '0' - '?'
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,                // '@' - 'O'
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,             // 'P' - '_'
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,                // '`' - 'o'
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,            // 'p' - 127
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, // 128-143
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, // 144-159
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, // 160-175
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, // 176-191
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, // 192-207
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, // 208-223
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, // 224-239
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, // 240-255
        30,                                                             // EOS
    ];

    // Codes right-aligned in a uint, indexed by symbol.
    private static readonly uint[] Codes = new uint[257];

    // For each length L: symbols of length L ordered by symbol, the first code of length L, and the
    // exclusive limit firstCode + count, all left-aligned to MaxCodeLength bits for one comparison per length.
    private static readonly ushort[] SymbolsByCode = new ushort[257];
    private static readonly uint[] LimitByLength = new uint[MaxCodeLength + 1];
    private static readonly uint[] FirstCodeByLength = new uint[MaxCodeLength + 1];
    private static readonly int[] FirstSymbolOffsetByLength = new int[MaxCodeLength + 1];

#pragma warning disable CA1810 // The tables are derived in one pass; a static constructor keeps that pass in one place.
    static Huffman()
#pragma warning restore CA1810
    {
        var lengths = CodeLengths;
        var offset = 0;
        uint code = 0;
        for (var length = 1; length <= MaxCodeLength; length++)
        {
            FirstCodeByLength[length] = code;
            FirstSymbolOffsetByLength[length] = offset;
            for (var symbol = 0; symbol < lengths.Length; symbol++)
            {
                if (lengths[symbol] == length)
                {
                    Codes[symbol] = code++;
                    SymbolsByCode[offset++] = (ushort)symbol;
                }
            }

            LimitByLength[length] = code << (MaxCodeLength - length);
            code <<= 1;
        }

        Debug.Assert(offset == 257, "every symbol has a code");
        Debug.Assert(LimitByLength[MaxCodeLength] == 1u << MaxCodeLength, "the code is complete (Kraft sum 1)");
    }

    /// <summary>The number of bytes <paramref name="source"/> takes Huffman-coded, padding included.</summary>
    public static int GetEncodedLength(ReadOnlySpan<byte> source)
    {
        var lengths = CodeLengths;
        long bits = 0;
        foreach (var b in source)
        {
            bits += lengths[b];
        }

        return (int)((bits + 7) >> 3);
    }

    /// <summary>Huffman-codes <paramref name="source"/>, padding the last byte with the EOS prefix (ones).</summary>
    public static bool TryEncode(ReadOnlySpan<byte> source, Span<byte> destination, out int bytesWritten)
    {
        var lengths = CodeLengths;
        ulong buffer = 0;
        var bitCount = 0;
        var written = 0;
        foreach (var b in source)
        {
            buffer = (buffer << lengths[b]) | Codes[b];
            bitCount += lengths[b];
            while (bitCount >= 8)
            {
                bitCount -= 8;
                if (written >= destination.Length)
                {
                    bytesWritten = 0;
                    return false;
                }

                destination[written++] = (byte)(buffer >> bitCount);
            }
        }

        if (bitCount > 0)
        {
            if (written >= destination.Length)
            {
                bytesWritten = 0;
                return false;
            }

            destination[written++] = (byte)((buffer << (8 - bitCount)) | (0xFFu >> bitCount));
        }

        bytesWritten = written;
        return true;
    }

    /// <summary>What <see cref="TryDecode"/> found.</summary>
    public enum DecodeStatus
    {
        /// <summary>Decoded.</summary>
        Done,

        /// <summary>The EOS symbol appeared in the string (section 5.2: a decoding error).</summary>
        EndOfStringSymbol,

        /// <summary>The padding was longer than 7 bits or not the most significant bits of EOS (all ones).</summary>
        BadPadding,

        /// <summary>The destination is too small; at most <c>source.Length * 8 / 5</c> bytes are needed.</summary>
        DestinationTooSmall,
    }

    /// <summary>The most bytes <paramref name="encodedLength"/> Huffman-coded bytes decode to (the shortest code is 5 bits).</summary>
    public static int GetMaxDecodedLength(int encodedLength) => (int)(((long)encodedLength * 8) / 5);

    /// <summary>Decodes a Huffman-coded string.</summary>
    public static DecodeStatus TryDecode(ReadOnlySpan<byte> source, Span<byte> destination, out int bytesWritten)
    {
        bytesWritten = 0;
        ulong buffer = 0;
        var bitCount = 0;
        var i = 0;
        var written = 0;
        while (true)
        {
            // Keep at least MaxCodeLength bits in the buffer while input lasts.
            while (bitCount <= 56 && i < source.Length)
            {
                buffer = (buffer << 8) | source[i++];
                bitCount += 8;
            }

            if (bitCount == 0)
            {
                break;
            }

            // The next MaxCodeLength bits, padded with ones past the end of the input: a complete code is read the
            // same either way, and an incomplete one then reads as a code longer than the bits that remain.
            uint window = bitCount >= MaxCodeLength
                ? (uint)(buffer >> (bitCount - MaxCodeLength)) & ((1u << MaxCodeLength) - 1)
                : (uint)((buffer << (MaxCodeLength - bitCount)) | ((1ul << (MaxCodeLength - bitCount)) - 1)) & ((1u << MaxCodeLength) - 1);

            var length = 5;
            while (window >= LimitByLength[length])
            {
                length++;
            }

            if (length > bitCount)
            {
                // What is left is padding: at most 7 bits, all ones (the most significant bits of EOS).
                var mask = (1ul << bitCount) - 1;
                if (bitCount > 7 || (buffer & mask) != mask)
                {
                    return DecodeStatus.BadPadding;
                }

                break;
            }

            var symbol = SymbolsByCode[FirstSymbolOffsetByLength[length] + (int)((window >> (MaxCodeLength - length)) - FirstCodeByLength[length])];
            if (symbol == EndOfString)
            {
                return DecodeStatus.EndOfStringSymbol;
            }

            if (written >= destination.Length)
            {
                return DecodeStatus.DestinationTooSmall;
            }

            destination[written++] = (byte)symbol;
            bitCount -= length;
            buffer &= (1ul << bitCount) - 1;
        }

        bytesWritten = written;
        return DecodeStatus.Done;
    }
}
