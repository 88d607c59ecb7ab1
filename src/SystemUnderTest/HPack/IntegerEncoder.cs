namespace SystemUnderTest.HPack;

/// <summary>Integer representation with an N-bit prefix, RFC 7541 section 5.1.</summary>
internal static class IntegerEncoder
{
    //   0   1   2   3   4   5   6   7
    // +---+---+---+---+---+---+---+---+
    // | ? | ? | ? | 1   1   1   1   1 |   prefix all ones: value continues
    // +---+---+---+-------------------+
    // | 1 |    Value-(2^N-1) LSB      |   7 bits per byte, least significant first
    // +---+---------------------------+
    // | 0 |    Value-(2^N-1) MSB      |
    // +---+---------------------------+

    /// <summary>
    /// Writes <paramref name="value"/> with a <paramref name="prefixLength"/>-bit prefix; the bits above the prefix
    /// in the first byte come from <paramref name="firstByteFlags"/>.
    /// </summary>
    public static bool TryEncode(int value, int prefixLength, byte firstByteFlags, Span<byte> destination, out int bytesWritten)
    {
        System.Diagnostics.Debug.Assert(value >= 0, "HPACK integers are non-negative");
        System.Diagnostics.Debug.Assert(prefixLength is >= 1 and <= 8, "RFC 7541 prefixes are 1 to 8 bits");
        bytesWritten = 0;
        if (destination.IsEmpty)
        {
            return false;
        }

        var max = (1 << prefixLength) - 1;
        if (value < max)
        {
            destination[0] = (byte)(firstByteFlags | value);
            bytesWritten = 1;
            return true;
        }

        destination[0] = (byte)(firstByteFlags | max);
        var remaining = (uint)(value - max);
        var i = 1;
        while (remaining >= 0x80)
        {
            if (i >= destination.Length)
            {
                return false;
            }

            destination[i++] = (byte)((remaining & 0x7F) | 0x80);
            remaining >>= 7;
        }

        if (i >= destination.Length)
        {
            return false;
        }

        destination[i++] = (byte)remaining;
        bytesWritten = i;
        return true;
    }

    /// <summary>The number of bytes <see cref="TryEncode"/> writes for <paramref name="value"/>.</summary>
    public static int GetEncodedLength(int value, int prefixLength)
    {
        var max = (1 << prefixLength) - 1;
        if (value < max)
        {
            return 1;
        }

        var length = 2;
        for (var remaining = (uint)(value - max); remaining >= 0x80; remaining >>= 7)
        {
            length++;
        }

        return length;
    }
}
