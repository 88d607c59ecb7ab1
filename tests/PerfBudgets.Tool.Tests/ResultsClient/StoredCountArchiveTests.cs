using System.IO.Compression;
using PerfBudgets.Tool.ResultsClient;

namespace PerfBudgets.Tool.Tests.ResultsClient;

public sealed class StoredCountArchiveTests : IDisposable
{
    private static readonly string Key = new('d', 64);
    private readonly string _store = Directory.CreateTempSubdirectory("perfbudgets-archive-").FullName;

    public void Dispose() => Directory.Delete(_store, recursive: true);

    [Fact]
    public void The_entries_of_a_store_are_its_folders_whose_manifest_names_their_key()
    {
        Entry(Key);
        Directory.CreateDirectory(Path.Combine(_store, ".incoming-1"));
        Directory.CreateDirectory(Path.Combine(_store, "empty"));
        var misnamed = Path.Combine(_store, new string('e', 32));
        Directory.CreateDirectory(misnamed);
        File.WriteAllText(Path.Combine(misnamed, "manifest.json"), Manifest(new string('f', 64)));
        var unreadable = Path.Combine(_store, new string('9', 32));
        Directory.CreateDirectory(unreadable);
        File.WriteAllText(Path.Combine(unreadable, "manifest.json"), "{ not json");

        StoredCountArchive.Entries(_store).Should().Equal([(Key, Path.Combine(_store, Key[..32]))]);
        StoredCountArchive.Entries(Path.Combine(_store, "missing")).Should().BeEmpty();
    }

    [Fact]
    public void An_entry_packed_and_unpacked_into_another_store_is_the_same_files()
    {
        var folder = Entry(Key);
        var other = Path.Combine(_store, "other");

        StoredCountArchive.Unpack(StoredCountArchive.Pack(folder), Key, other);

        var copy = Path.Combine(other, Key[..32]);
        foreach (var file in Directory.GetFiles(folder))
        {
            File.ReadAllBytes(Path.Combine(copy, Path.GetFileName(file))).Should().Equal(File.ReadAllBytes(file));
        }

        Directory.GetFiles(copy).Should().HaveCount(Directory.GetFiles(folder).Length);
    }

    [Fact]
    public void An_archive_that_unpacks_past_the_bound_is_refused_and_leaves_nothing()
    {
        var archive = StoredCountArchive.Pack(Entry(Key));
        var other = Path.Combine(_store, "other");

        var unpack = () => StoredCountArchive.Unpack(archive, Key, other, maxUnpackedBytes: 1_000);

        unpack.Should().Throw<ToolInputException>().WithMessage("*unpacks to more than 1000 bytes*");
        Directory.GetFileSystemEntries(other).Should().BeEmpty();
    }

    [Theory]
    [InlineData("sub/manifest.json")]
    [InlineData("../manifest.json")]
    [InlineData(".hidden")]
    [InlineData("dump with a space.gz")]
    public void An_archive_with_a_name_the_gate_does_not_write_is_refused(string name)
    {
        using var buffer = new MemoryStream();
        using (var zip = new ZipArchive(buffer, ZipArchiveMode.Create, leaveOpen: true))
        {
            using (var writer = new StreamWriter(zip.CreateEntry("manifest.json").Open()))
            {
                writer.Write(Manifest(Key));
            }

            zip.CreateEntry(name).Open().Dispose();
        }

        var unpack = () => StoredCountArchive.Unpack(buffer.ToArray(), Key, _store);

        unpack.Should().Throw<ToolInputException>().WithMessage("*not a file name of a store's entry*");
        Directory.GetFileSystemEntries(_store).Should().BeEmpty();
    }

    private static string Manifest(string key) => $$"""{ "Format": "test", "Key": "{{key}}" }""";

    private string Entry(string key)
    {
        var folder = Path.Combine(_store, key[..32]);
        Directory.CreateDirectory(folder);
        File.WriteAllText(Path.Combine(folder, "manifest.json"), Manifest(key));
        var dump = new byte[20_000];
        new Random(7).NextBytes(dump);
        File.WriteAllBytes(Path.Combine(folder, "callgrind.out.1.1.gz"), dump);
        return folder;
    }
}
