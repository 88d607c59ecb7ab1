using Shared.HPackStories;
using SystemUnderTest.HPack;

namespace Correctness.HPack;

/// <summary>
/// Seeded mutation of corpus blocks (flip, insert, truncate): whatever the bytes, only
/// <see cref="HPackDecodingException"/> escapes the decoder (no IndexOutOfRange, Overflow, NullReference...).
/// </summary>
public sealed class HPackDecoderMutationTests
{
    private const int Seed = 7541;
    private const int Mutations = 20_000;

    [Fact]
    public void Only_the_codec_exception_escapes_for_mutated_blocks()
    {
        var random = new Random(Seed);
        var stories = HPackCorpus.EncoderFolders.SelectMany(f => HPackCorpus.Stories(f).Values).ToArray();
        var rejected = 0;
        var decoded = 0;
        for (var m = 0; m < Mutations; m++)
        {
            var story = stories[random.Next(stories.Length)];
            var target = random.Next(Math.Min(8, story.Cases.Count));
            var decoder = new HPackDecoder(new HPackDecoderOptions { MaxStringLiteralLength = 1024, MaxHeaderListSize = 8192 });
            try
            {
                for (var i = 0; i <= target; i++)
                {
                    var wire = i == target ? Mutate(story.Cases[i].Wire!, random) : story.Cases[i].Wire!;
                    var handler = new HeaderListCollector();
                    // Mutated blocks also arrive in two fragments half of the time.
                    var split = random.Next(2) == 0 ? wire.Length : random.Next(wire.Length + 1);
                    decoder.Decode(wire.AsSpan(0, split), endHeaders: false, handler);
                    decoder.Decode(wire.AsSpan(split), endHeaders: true, handler);
                }

                decoded++;
            }
            catch (HPackDecodingException)
            {
                rejected++;
            }
        }

        // Both outcomes occur, so the mutations reach past the first byte and the test is not vacuous.
        rejected.Should().BeGreaterThan(Mutations / 10);
        decoded.Should().BeGreaterThan(Mutations / 10);
    }

    private static byte[] Mutate(byte[] wire, Random random)
    {
        var bytes = wire.ToList();
        var edits = 1 + random.Next(3);
        for (var e = 0; e < edits; e++)
        {
            switch (random.Next(4))
            {
                case 0 when bytes.Count > 0:
                    bytes[random.Next(bytes.Count)] ^= (byte)(1 << random.Next(8));
                    break;
                case 1:
                    bytes.Insert(random.Next(bytes.Count + 1), (byte)random.Next(256));
                    break;
                case 2 when bytes.Count > 0:
                    bytes.RemoveRange(random.Next(bytes.Count), 1);
                    break;
                default:
                    bytes = bytes.Take(random.Next(bytes.Count + 1)).ToList();
                    break;
            }
        }

        return bytes.ToArray();
    }
}
