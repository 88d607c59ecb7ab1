using SystemUnderTest.HPack;

namespace Correctness.HPack;

/// <summary>Section 5.1 integers: the RFC's examples (C.1) and the edges, encode and decode from the same rows.</summary>
public sealed class IntegerCodecTests
{
    public static TheoryData<int, int, string> Rows => new()
    {
        // C.1.1: 10 with a 5-bit prefix.
        { 10, 5, "0a" },
        // C.1.2: 1337 with a 5-bit prefix.
        { 1337, 5, "1f9a0a" },
        // C.1.3: 42 at an octet boundary (8-bit prefix).
        { 42, 8, "2a" },
        // Prefix exactly full: 2^N-1 needs one continuation byte of 0.
        { 31, 5, "1f00" },
        { 127, 7, "7f00" },
        // The largest value: 2^31-1.
        { int.MaxValue, 7, "7f80ffffff07" },
        { int.MaxValue, 1, "01feffffff07" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public void Encodes_and_decodes(int value, int prefix, string hex)
    {
        var buffer = new byte[8];
        IntegerEncoder.TryEncode(value, prefix, 0, buffer, out var written).Should().BeTrue();
        Convert.ToHexStringLower(buffer.AsSpan(0, written)).Should().Be(hex);
        IntegerEncoder.GetEncodedLength(value, prefix).Should().Be(written);
        IntegerEncoder.TryEncode(value, prefix, 0, buffer.AsSpan(0, written - 1), out _).Should().BeFalse();

        var bytes = Convert.FromHexString(hex);
        var decoder = default(IntegerDecoder);
        if (decoder.BeginTryDecode(bytes[0], prefix, out var result))
        {
            bytes.Should().HaveCount(1);
        }
        else
        {
            for (var i = 1; i < bytes.Length; i++)
            {
                decoder.TryDecode(bytes[i], out result).Should().Be(i == bytes.Length - 1 ? IntegerDecoder.Status.Done : IntegerDecoder.Status.NeedMore);
            }
        }

        result.Should().Be(value);
    }

    [Fact]
    public void Overflow_and_endless_zero_continuations_are_rejected()
    {
        var decoder = default(IntegerDecoder);
        decoder.BeginTryDecode(0x7F, 7, out _).Should().BeFalse();
        foreach (var b in new byte[] { 0x81, 0xFF, 0xFF, 0xFF })
        {
            decoder.TryDecode(b, out _).Should().Be(IntegerDecoder.Status.NeedMore);
        }

        decoder.TryDecode(0x08, out _).Should().Be(IntegerDecoder.Status.Overflow);

        decoder.BeginTryDecode(0x7F, 7, out _).Should().BeFalse();
        var status = IntegerDecoder.Status.NeedMore;
        var bytes = 0;
        while (status == IntegerDecoder.Status.NeedMore)
        {
            status = decoder.TryDecode(0x80, out _);
            bytes++;
        }

        status.Should().Be(IntegerDecoder.Status.Overflow);
        bytes.Should().BeLessThan(12);
    }
}
