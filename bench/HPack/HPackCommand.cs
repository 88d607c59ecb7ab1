using Shared.HPackStories;
using SystemUnderTest.HPack;

namespace PerfGate.Bench.HPack;

/// <summary>
/// The interop command line: <c>hpack decode-stories DIR</c> decodes every hpack-test-case story in DIR and exits
/// 1 naming the first mismatch; <c>hpack encode-stories RAW_DIR OUT_DIR [--table-size N]</c> writes our encoder's
/// output for raw-data stories in the same format, for other implementations to decode.
/// </summary>
internal static class HPackCommand
{
    /// <summary>Runs the command; returns the process exit code.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        ArgumentNullException.ThrowIfNull(args);
        return args switch
        {
            ["decode-stories", var dir, ..] => await DecodeStoriesAsync(dir),
            ["encode-stories", var rawDir, var outDir, ..] => await EncodeStoriesAsync(rawDir, outDir, SystemUnderTest.Cli.CommandLine.IntOption(args, "--table-size", HPackDecoderOptions.DefaultMaxDynamicTableSize)),
            _ => throw new ArgumentException("usage: hpack decode-stories DIR | hpack encode-stories RAW_DIR OUT_DIR [--table-size N]"),
        };
    }

    private static async Task<int> DecodeStoriesAsync(string dir)
    {
        var files = StoryFiles(dir);
        var cases = 0;
        foreach (var file in files)
        {
            var story = HPackStory.Parse(await File.ReadAllBytesAsync(file));
            var mismatch = HPackStoryRunner.Decode(story);
            if (mismatch != null)
            {
                await Console.Error.WriteLineAsync($"{file}: {mismatch}");
                return 1;
            }

            cases += story.Cases.Count;
        }

        await Console.Out.WriteLineAsync($"decoded {files.Length} stories, {cases} header blocks: all match");
        return 0;
    }

    private static async Task<int> EncodeStoriesAsync(string rawDir, string outDir, int tableSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(tableSize);
        var files = StoryFiles(rawDir);
        Directory.CreateDirectory(outDir);
        long headerBytes = 0;
        long wireBytes = 0;
        foreach (var file in files)
        {
            var encoded = HPackStoryRunner.Encode(HPackStory.Parse(await File.ReadAllBytesAsync(file)), tableSize);
            foreach (var c in encoded.Cases)
            {
                wireBytes += c.Wire!.Length;
                foreach (var (name, value) in c.Headers)
                {
                    headerBytes += HPackStory.Utf8(name).Length + HPackStory.Utf8(value).Length;
                }
            }

            await File.WriteAllBytesAsync(Path.Combine(outDir, Path.GetFileName(file)), encoded.ToJson());
        }

        await Console.Out.WriteLineAsync($"encoded {files.Length} stories at table size {tableSize}: {wireBytes} wire bytes for {headerBytes} header bytes (ratio {(double)wireBytes / Math.Max(1, headerBytes):0.0000})");
        return 0;
    }

    private static string[] StoryFiles(string dir)
    {
        if (!Directory.Exists(dir))
        {
            throw new ArgumentException($"no such directory: {dir}");
        }

        var files = Directory.GetFiles(dir, "story_*.json");
        Array.Sort(files, StringComparer.Ordinal);
        return files.Length > 0 ? files : throw new ArgumentException($"no story_*.json files in {dir}");
    }
}
