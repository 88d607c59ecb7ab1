using Shared.HPackStories;
using SystemUnderTest.HPack;

namespace Correctness.HPack;

/// <summary>Helpers shared by the HPACK tests: hex, "name: value" lists, and whole-block decode/encode.</summary>
internal static class HPackTestData
{
    /// <summary>Parses hex with spaces (as printed in RFC 7541 Appendix C).</summary>
    public static byte[] Hex(string hex) => Convert.FromHexString(hex.Replace(" ", "", StringComparison.Ordinal));

    /// <summary>"name: value" lines to pairs (split at the first ": ").</summary>
    public static List<KeyValuePair<string, string>> Headers(params string[] lines) =>
        lines.Select(line =>
        {
            var at = line.IndexOf(": ", StringComparison.Ordinal);
            return new KeyValuePair<string, string>(line[..at], line[(at + 2)..]);
        }).ToList();

    /// <summary>Decodes one whole block.</summary>
    public static List<KeyValuePair<string, string>> Decode(HPackDecoder decoder, byte[] block)
    {
        var collector = new HeaderListCollector();
        decoder.Decode(block, endHeaders: true, collector);
        return collector.Headers;
    }

    /// <summary>Encodes one block.</summary>
    public static byte[] Encode(HPackEncoder encoder, IReadOnlyList<KeyValuePair<string, string>> headers)
    {
        var buffer = new byte[1 << 16];
        var length = HPackStoryRunner.EncodeBlock(encoder, headers, buffer);
        return buffer.AsSpan(0, length).ToArray();
    }
}
