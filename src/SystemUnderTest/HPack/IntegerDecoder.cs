namespace SystemUnderTest.HPack;

/// <summary>
/// Decodes an RFC 7541 section 5.1 integer one byte at a time, so it can resume when a fragment ends inside
/// the integer. Values above 2^31-1 (<see cref="int.MaxValue"/>) are rejected as overflow.
/// </summary>
internal struct IntegerDecoder
{
    // 2^31-1 needs 31 bits; continuation bytes carry 7 bits each. Zero-valued continuation bytes add nothing, so the
    // count is capped separately to bound the work a hostile "0x80 0x80 0x80 ..." run can cause.
    private const int MaxShift = 63;

    private int _value;
    private int _shift;

    /// <summary>What <see cref="TryDecode"/> found.</summary>
    public enum Status
    {
        /// <summary>The integer continues in the next byte.</summary>
        NeedMore,

        /// <summary>The integer is complete.</summary>
        Done,

        /// <summary>The integer exceeds 2^31-1, or uses more continuation bytes than any valid one needs.</summary>
        Overflow,
    }

    /// <summary>Reads the prefix of the first byte; true when the integer fits in the prefix.</summary>
    public bool BeginTryDecode(byte b, int prefixLength, out int result)
    {
        var mask = (1 << prefixLength) - 1;
        var prefix = b & mask;
        if (prefix < mask)
        {
            result = prefix;
            return true;
        }

        _value = prefix;
        _shift = 0;
        result = 0;
        return false;
    }

    /// <summary>Reads one continuation byte.</summary>
    public Status TryDecode(byte b, out int result)
    {
        result = 0;
        var bits = b & 0x7F;
        if (bits != 0)
        {
            if (_shift > 30)
            {
                return Status.Overflow;
            }

            var total = _value + ((long)bits << _shift);
            if (total > int.MaxValue)
            {
                return Status.Overflow;
            }

            _value = (int)total;
        }

        _shift += 7;
        if ((b & 0x80) == 0)
        {
            result = _value;
            return Status.Done;
        }

        return _shift > MaxShift ? Status.Overflow : Status.NeedMore;
    }
}
