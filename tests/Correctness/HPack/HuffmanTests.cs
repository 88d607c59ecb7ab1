using Shared.HPackStories;
using SystemUnderTest.HPack;
using static Correctness.HPack.HPackTestData;

namespace Correctness.HPack;

/// <summary>Appendix B: encode and decode agree with RFC 7541's examples and each other for every symbol.</summary>
public sealed class HuffmanTests
{
    // Strings and their codes from RFC 7541 C.4 and C.6.
    public static TheoryData<string, string> Vectors => new()
    {
        { "www.example.com", "f1e3 c2e5 f23a 6ba0 ab90 f4ff" },
        { "no-cache", "a8eb 1064 9cbf" },
        { "custom-key", "25a8 49e9 5ba9 7d7f" },
        { "custom-value", "25a8 49e9 5bb8 e8b4 bf" },
        { "302", "6402" },
        { "private", "aec3 771a 4b" },
        { "Mon, 21 Oct 2013 20:13:21 GMT", "d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff" },
        { "https://www.example.com", "9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3" },
        { "", "" },
    };

    [Theory]
    [MemberData(nameof(Vectors))]
    public void Encodes_and_decodes_the_rfc_examples(string text, string hex)
    {
        var bytes = HPackStory.Utf8(text);
        var code = Hex(hex);
        Huffman.GetEncodedLength(bytes).Should().Be(code.Length);
        var encoded = new byte[code.Length];
        Huffman.TryEncode(bytes, encoded, out var written).Should().BeTrue();
        encoded.AsSpan(0, written).ToArray().Should().Equal(code);
        var decoded = new byte[Huffman.GetMaxDecodedLength(code.Length)];
        Huffman.TryDecode(code, decoded, out var length).Should().Be(Huffman.DecodeStatus.Done);
        decoded.AsSpan(0, length).ToArray().Should().Equal(bytes);
    }

    [Fact]
    public void Every_byte_value_round_trips_alone_and_in_runs()
    {
        for (var b = 0; b < 256; b++)
        {
            foreach (var run in new[] { 1, 2, 3, 7, 8 })
            {
                var source = Enumerable.Repeat((byte)b, run).ToArray();
                var encoded = new byte[Huffman.GetEncodedLength(source)];
                Huffman.TryEncode(source, encoded, out _).Should().BeTrue();
                var decoded = new byte[Huffman.GetMaxDecodedLength(encoded.Length)];
                Huffman.TryDecode(encoded, decoded, out var length).Should().Be(Huffman.DecodeStatus.Done, $"byte {b} x {run}");
                decoded.AsSpan(0, length).ToArray().Should().Equal(source);
            }
        }
    }

    [Fact]
    public void Short_destinations_are_reported()
    {
        Huffman.TryEncode("www.example.com"u8, new byte[11], out _).Should().BeFalse();
        Huffman.TryDecode(Hex("f1e3 c2e5 f23a 6ba0 ab90 f4ff"), new byte[14], out _).Should().Be(Huffman.DecodeStatus.DestinationTooSmall);
    }
}
