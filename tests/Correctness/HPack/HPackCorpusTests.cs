using System.Globalization;
using PerfBudgets;
using Shared.HPackStories;

namespace Correctness.HPack;

/// <summary>The hpack-test-case corpus: every other implementation's output decodes; raw-data round-trips through ours.</summary>
public sealed class HPackCorpusTests
{
    public static TheoryData<string> EncoderFolders => new(HPackCorpus.EncoderFolders);

    public static TheoryData<int> TableSizes => new(0, 256, 4096, 65536);

    [Fact]
    public void Archive_carries_the_license_and_source()
    {
        _ = HPackCorpus.Stories("raw-data");
        HPackCorpus.OtherFiles.Should().Contain(["LICENSE", "SOURCE.txt"]);
    }

    [Theory]
    [MemberData(nameof(EncoderFolders))]
    public void Decodes_every_story_of_the_folder(string folder)
    {
        var stories = HPackCorpus.Stories(folder);
        stories.Should().HaveCountGreaterThanOrEqualTo(31);
        foreach (var (file, story) in stories)
        {
            HPackStoryRunner.Decode(story).Should().BeNull($"{folder}/{file} decodes to its headers");
        }
    }

    [Theory]
    [MemberData(nameof(TableSizes))]
    public void Raw_data_round_trips_through_encoder_and_decoder(int tableSize)
    {
        var stories = HPackCorpus.Stories("raw-data");
        stories.Should().HaveCount(32);
        foreach (var (file, story) in stories)
        {
            var encoded = HPackStoryRunner.Encode(story, tableSize);
            // Through the JSON format too, as another implementation would read it.
            HPackStoryRunner.Decode(HPackStory.Parse(encoded.ToJson())).Should().BeNull($"raw-data/{file} at table size {tableSize} round-trips");
        }
    }

    [Fact]
    public void Raw_data_at_table_size_4096_compresses_at_least_as_well_as_nghttp2()
    {
        long headerBytes = 0;
        long ourBytes = 0;
        long nghttp2Bytes = 0;
        var nghttp2 = HPackCorpus.Stories("nghttp2");
        foreach (var (file, story) in HPackCorpus.Stories("raw-data"))
        {
            var theirs = nghttp2[file];
            theirs.Cases.Should().HaveCount(story.Cases.Count, $"nghttp2/{file} encodes the same blocks");
            nghttp2Bytes += theirs.Cases.Sum(c => (long)c.Wire!.Length);
            var ours = HPackStoryRunner.Encode(story, 4096);
            ourBytes += ours.Cases.Sum(c => (long)c.Wire!.Length);
            headerBytes += story.Cases.Sum(c => c.Headers.Sum(h => (long)HPackStory.Utf8(h.Key).Length + HPackStory.Utf8(h.Value).Length));
        }

        var ourRatio = (double)ourBytes / headerBytes;
        var nghttp2Ratio = (double)nghttp2Bytes / headerBytes;
        var gate = SuiteGate.Current;
        gate.Observe("HPack.Encode.RawData.CompressionRatio", ourRatio, "ratio", string.Create(CultureInfo.InvariantCulture, $"{ourBytes} wire bytes / {headerBytes} header bytes"));
        gate.Observe("HPack.Encode.RawData.Nghttp2CompressionRatio", nghttp2Ratio, "ratio", string.Create(CultureInfo.InvariantCulture, $"{nghttp2Bytes} wire bytes / {headerBytes} header bytes"));
        gate.Check("HPack.Encode.RawData.CompressionRatioVsNghttp2", ourRatio / nghttp2Ratio,
            string.Create(CultureInfo.InvariantCulture, $"ours {ourBytes} B ({ourRatio:0.0000}) vs nghttp2 {nghttp2Bytes} B ({nghttp2Ratio:0.0000}) for {headerBytes} header bytes, 32 stories"));
    }
}
