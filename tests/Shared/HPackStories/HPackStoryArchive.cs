using System.Formats.Tar;
using System.IO.Compression;

namespace Shared.HPackStories;

/// <summary>
/// Reads hpack-test-case stories straight out of a gzip'd tar of the corpus (<c>ROOT/FOLDER/story_NN.json</c>),
/// in memory: the tests and the benchmarks share one vendored archive instead of 38 MB of loose JSON.
/// </summary>
internal sealed class HPackStoryArchive
{
    private HPackStoryArchive(Dictionary<string, SortedDictionary<string, HPackStory>> folders, HashSet<string> otherFiles)
    {
        Folders = folders;
        OtherFiles = otherFiles;
    }

    /// <summary>The stories of each folder, by file name in order.</summary>
    public IReadOnlyDictionary<string, SortedDictionary<string, HPackStory>> Folders { get; }

    /// <summary>Files in the archive besides stories (LICENSE, SOURCE.txt...), relative to its root folder.</summary>
    public IReadOnlySet<string> OtherFiles { get; }

    /// <summary>The stories of <paramref name="folder"/>.</summary>
    /// <exception cref="KeyNotFoundException">The archive has no such folder.</exception>
    public SortedDictionary<string, HPackStory> Stories(string folder) =>
        Folders.TryGetValue(folder, out var stories)
            ? stories
            : throw new KeyNotFoundException($"The corpus archive has no folder '{folder}'.");

    /// <summary>Reads every story of the archive at <paramref name="path"/>.</summary>
    public static HPackStoryArchive Read(string path)
    {
        var folders = new Dictionary<string, SortedDictionary<string, HPackStory>>(StringComparer.Ordinal);
        var others = new HashSet<string>(StringComparer.Ordinal);
        using var file = File.OpenRead(path);
        using var gzip = new GZipStream(file, CompressionMode.Decompress);
        using var tar = new TarReader(gzip);
        while (tar.GetNextEntry() is { } entry)
        {
            if (entry.EntryType is not (TarEntryType.RegularFile or TarEntryType.V7RegularFile) || entry.DataStream is null)
            {
                continue;
            }

            var parts = entry.Name.Split('/');
            if (parts.Length == 3 && parts[2].StartsWith("story_", StringComparison.Ordinal) && parts[2].EndsWith(".json", StringComparison.Ordinal))
            {
                using var buffer = new MemoryStream();
                entry.DataStream.CopyTo(buffer);
                if (!folders.TryGetValue(parts[1], out var stories))
                {
                    folders[parts[1]] = stories = new SortedDictionary<string, HPackStory>(StringComparer.Ordinal);
                }

                stories[parts[2]] = HPackStory.Parse(buffer.GetBuffer().AsSpan(0, (int)buffer.Length));
            }
            else
            {
                others.Add(string.Join('/', parts.Skip(1)));
            }
        }

        return new HPackStoryArchive(folders, others);
    }
}
