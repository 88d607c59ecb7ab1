using Shared.HPackStories;

namespace Correctness.HPack;

/// <summary>
/// The vendored hpack-test-case corpus (MIT, github.com/http2jp/hpack-test-case at 8a1406e; LICENSE and SOURCE.txt
/// are inside the archive), read from TestVectors/hpack-test-case.tar.gz once per test run.
/// </summary>
internal static class HPackCorpus
{
    /// <summary>The folders holding other implementations' encoder output.</summary>
    public static readonly string[] EncoderFolders = Shared.Workloads.HPackWorkloads.CorpusEncoderFolders;

    private static readonly Lazy<HPackStoryArchive> Archive = new(() => HPackStoryArchive.Read(ArchivePath));

    /// <summary>The archive's path in the test output (linked from the source tree by the project file).</summary>
    public static string ArchivePath => Shared.Workloads.HPackWorkloads.CorpusArchivePath;

    /// <summary>The stories of <paramref name="folder"/>, by file name in order.</summary>
    public static SortedDictionary<string, HPackStory> Stories(string folder) => Archive.Value.Stories(folder);

    /// <summary>The file names found in the archive besides stories (LICENSE, SOURCE.txt).</summary>
    public static IReadOnlySet<string> OtherFiles => Archive.Value.OtherFiles;
}
