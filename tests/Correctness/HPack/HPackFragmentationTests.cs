using Shared.HPackStories;
using SystemUnderTest.HPack;

namespace Correctness.HPack;

/// <summary>A block split anywhere (HEADERS + CONTINUATION) decodes to the same headers as the whole block.</summary>
public sealed class HPackFragmentationTests
{
    // A sample: the first blocks of stories with Huffman literals (nghttp2, python) and plain literals (swift-nio).
    public static TheoryData<string, string> Sample => new()
    {
        { "nghttp2", "story_00.json" },
        { "nghttp2", "story_20.json" },
        { "python-hpack", "story_05.json" },
        { "swift-nio-hpack-plain-text", "story_10.json" },
        { "nghttp2-change-table-size", "story_03.json" },
    };

    private const int BlocksPerStory = 12;

    [Theory]
    [MemberData(nameof(Sample))]
    public void Every_split_point_decodes_the_same(string folder, string file)
    {
        var story = Take(HPackCorpus.Stories(folder)[file]);
        var longest = story.Cases.Max(c => c.Wire!.Length);
        for (var split = 0; split <= longest; split++)
        {
            var at = split;
            Replay(story, wire => [wire[..Math.Min(at, wire.Length)], wire[Math.Min(at, wire.Length)..]], $"{folder}/{file} split at {split}");
        }
    }

    [Theory]
    [MemberData(nameof(Sample))]
    public void One_byte_fragments_decode_the_same(string folder, string file)
    {
        var story = Take(HPackCorpus.Stories(folder)[file]);
        Replay(story, wire => wire.Select(b => new[] { b }).ToArray(), $"{folder}/{file} in 1-byte fragments");
    }

    [Fact]
    public void Empty_fragments_change_nothing()
    {
        var story = Take(HPackCorpus.Stories("nghttp2")["story_01.json"]);
        Replay(story, wire => [[], wire[..(wire.Length / 2)], [], wire[(wire.Length / 2)..], []], "with empty fragments");
    }

    private static HPackStory Take(HPackStory story) => new(story.Cases.Take(BlocksPerStory).ToList());

    private static void Replay(HPackStory story, Func<byte[], byte[][]> split, string because)
    {
        var decoder = new HPackDecoder();
        for (var i = 0; i < story.Cases.Count; i++)
        {
            var c = story.Cases[i];
            if (c.HeaderTableSize is { } size)
            {
                decoder.SetMaxDynamicTableSizeLimit(size);
            }

            var collector = new HeaderListCollector();
            var fragments = split(c.Wire!);
            for (var f = 0; f < fragments.Length; f++)
            {
                decoder.Decode(fragments[f], endHeaders: f == fragments.Length - 1, collector);
            }

            collector.Headers.Should().Equal(c.Headers, $"{because}, block {i}");
        }
    }
}
