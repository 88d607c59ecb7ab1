using System.Formats.Tar;
using System.IO.Compression;
using SystemUnderTest.HPack;

namespace PerfGate.Tests.Correctness.HPack;

/// <summary>
/// The vendored hpack-test-case corpus (MIT, github.com/http2jp/hpack-test-case at 8a1406e; LICENSE and SOURCE.txt
/// are inside the archive), read from TestVectors/hpack-test-case.tar.gz once per test run.
/// </summary>
internal static class HPackCorpus
{
    /// <summary>The folders holding other implementations' encoder output.</summary>
    public static readonly string[] EncoderFolders =
    [
        "go-hpack", "haskell-http2-linear-huffman", "nghttp2", "nghttp2-16384-4096", "nghttp2-change-table-size",
        "node-http2-hpack", "python-hpack", "swift-nio-hpack-huffman", "swift-nio-hpack-plain-text",
    ];

    private static readonly Lazy<Dictionary<string, SortedDictionary<string, HPackStory>>> Folders = new(Load);

    /// <summary>The archive's path in the test output (linked from the source tree by the project file).</summary>
    public static string ArchivePath => Path.Combine(AppContext.BaseDirectory, "HPack", "TestVectors", "hpack-test-case.tar.gz");

    /// <summary>The stories of <paramref name="folder"/>, by file name in order.</summary>
    public static SortedDictionary<string, HPackStory> Stories(string folder) => Folders.Value[folder];

    /// <summary>The file names found in the archive besides stories (LICENSE, SOURCE.txt).</summary>
    public static IReadOnlySet<string> OtherFiles { get; private set; } = new HashSet<string>();

    private static Dictionary<string, SortedDictionary<string, HPackStory>> Load()
    {
        var folders = new Dictionary<string, SortedDictionary<string, HPackStory>>(StringComparer.Ordinal);
        var others = new HashSet<string>(StringComparer.Ordinal);
        using var file = File.OpenRead(ArchivePath);
        using var gzip = new GZipStream(file, CompressionMode.Decompress);
        using var tar = new TarReader(gzip);
        while (tar.GetNextEntry() is { } entry)
        {
            if (entry.EntryType is not (TarEntryType.RegularFile or TarEntryType.V7RegularFile) || entry.DataStream is null)
            {
                continue;
            }

            // hpack-test-case/<folder>/story_NN.json
            var parts = entry.Name.Split('/');
            if (parts.Length == 3 && parts[2].StartsWith("story_", StringComparison.Ordinal) && parts[2].EndsWith(".json", StringComparison.Ordinal))
            {
                using var buffer = new MemoryStream();
                entry.DataStream.CopyTo(buffer);
                if (!folders.TryGetValue(parts[1], out var stories))
                {
                    folders[parts[1]] = stories = new SortedDictionary<string, HPackStory>(StringComparer.Ordinal);
                }

                stories[parts[2]] = HPackStory.Parse(buffer.ToArray());
            }
            else
            {
                others.Add(string.Join('/', parts.Skip(1)));
            }
        }

        OtherFiles = others;
        return folders;
    }
}
