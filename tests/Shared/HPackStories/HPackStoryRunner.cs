using SystemUnderTest.HPack;

namespace Shared.HPackStories;

/// <summary>Decodes and encodes <see cref="HPackStory"/> stories with one decoder or encoder per story (one connection).</summary>
internal static class HPackStoryRunner
{
    /// <summary>
    /// Decodes every case of <paramref name="story"/> in order with a shared decoder, honouring header_table_size;
    /// returns null when every block decodes to its headers, else a description of the first mismatch.
    /// </summary>
    public static string? Decode(HPackStory story, HPackDecoderOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(story);
        var decoder = new HPackDecoder(options ?? new HPackDecoderOptions { MaxDynamicTableSize = 65536, MaxHeaderListSize = 1 << 20, MaxStringLiteralLength = 1 << 20 });
        decoder.SetMaxDynamicTableSizeLimit(HPackDecoderOptions.DefaultMaxDynamicTableSize);
        for (var i = 0; i < story.Cases.Count; i++)
        {
            var c = story.Cases[i];
            if (c.Wire == null)
            {
                return $"case {i} has no wire bytes";
            }

            if (c.HeaderTableSize is { } size)
            {
                decoder.SetMaxDynamicTableSizeLimit(size);
            }

            var collector = new HeaderListCollector();
            try
            {
                decoder.Decode(c.Wire, endHeaders: true, collector);
            }
            catch (HPackDecodingException e)
            {
                return $"case {i}: {e.Message}";
            }

            var mismatch = Compare(c.Headers, collector.Headers);
            if (mismatch != null)
            {
                return $"case {i}: {mismatch}";
            }
        }

        return null;
    }

    /// <summary>Encodes the headers of <paramref name="story"/> with one encoder; the cases get wire bytes.</summary>
    public static HPackStory Encode(HPackStory story, int tableSize, bool useHuffman = true)
    {
        ArgumentNullException.ThrowIfNull(story);
        var encoder = new HPackEncoder(new HPackEncoderOptions { MaxDynamicTableSize = tableSize, UseHuffman = useHuffman });
        var buffer = new byte[1 << 16];
        var cases = new List<HPackStoryCase>(story.Cases.Count);
        for (var i = 0; i < story.Cases.Count; i++)
        {
            var headers = story.Cases[i].Headers;
            var length = EncodeBlock(encoder, headers, buffer);
            cases.Add(new HPackStoryCase(i == 0 ? tableSize : null, buffer.AsSpan(0, length).ToArray(), headers));
        }

        return new HPackStory(cases, $"Encoded by PerfGate's HPackEncoder, dynamic table size {tableSize}, Huffman {(useHuffman ? "when shorter" : "off")}.");
    }

    /// <summary>Encodes one block into <paramref name="buffer"/>; returns the length.</summary>
    /// <exception cref="InvalidOperationException">The block does not fit in <paramref name="buffer"/>.</exception>
    public static int EncodeBlock(HPackEncoder encoder, IReadOnlyList<KeyValuePair<string, string>> headers, Span<byte> buffer)
    {
        ArgumentNullException.ThrowIfNull(encoder);
        ArgumentNullException.ThrowIfNull(headers);
        if (!encoder.TryBeginHeaderBlock(buffer, out var written))
        {
            throw new InvalidOperationException($"Header block does not fit in {buffer.Length} bytes.");
        }

        foreach (var (name, value) in headers)
        {
            if (!encoder.TryEncodeHeader(HPackStory.Utf8(name), HPackStory.Utf8(value), buffer[written..], out var n))
            {
                throw new InvalidOperationException($"Header block does not fit in {buffer.Length} bytes.");
            }

            written += n;
        }

        return written;
    }

    /// <summary>Null when the two header lists are equal, else the first difference.</summary>
    public static string? Compare(IReadOnlyList<KeyValuePair<string, string>> expected, IReadOnlyList<KeyValuePair<string, string>> actual)
    {
        ArgumentNullException.ThrowIfNull(expected);
        ArgumentNullException.ThrowIfNull(actual);
        for (var i = 0; i < Math.Min(expected.Count, actual.Count); i++)
        {
            if (expected[i].Key != actual[i].Key || expected[i].Value != actual[i].Value)
            {
                return $"header {i}: expected \"{expected[i].Key}: {expected[i].Value}\", decoded \"{actual[i].Key}: {actual[i].Value}\"";
            }
        }

        return expected.Count == actual.Count ? null : $"expected {expected.Count} headers, decoded {actual.Count}";
    }
}
