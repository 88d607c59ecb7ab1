using System.IO.Compression;
using System.Text.Json;

namespace PerfBudgets.Tool.ResultsClient;

/// <summary>
/// One entry of the gate's store of counted runs (a folder named by the first 32 hex digits of its key, its
/// <c>manifest.json</c> naming the whole key) as the zip the results server keeps, and back. The files are stored as
/// they are (most are gzipped already). An archive read back is trusted no further than its shape: flat, named as the
/// gate names its files, bounded in size, and its manifest's key the one asked for; the gate then checks every file
/// the stored run mapped against its own before it reuses it.
/// </summary>
internal static class StoredCountArchive
{
    /// <summary>The most bytes an archive may unpack to: 1 GiB, a hundred times this repository's largest entry.</summary>
    public const long MaxUnpackedBytes = 1L << 30;

    private const int MaxFiles = 10_000;
    private const string ManifestName = "manifest.json";

    /// <summary>The entries of the store <paramref name="store"/>: each folder with a readable manifest, by its key.</summary>
    public static IReadOnlyList<(string Key, string Folder)> Entries(string store)
    {
        if (!Directory.Exists(store))
        {
            return [];
        }

        var entries = new List<(string, string)>();
        foreach (var folder in Directory.EnumerateDirectories(store).Where(d => !Path.GetFileName(d).StartsWith('.')).Order(StringComparer.Ordinal))
        {
            if (KeyOf(folder) is { } key && Path.GetFileName(folder) == key[..32])
            {
                entries.Add((key, folder));
            }
        }

        return entries;
    }

    /// <summary>The folder of key <paramref name="key"/> in <paramref name="store"/>.</summary>
    public static string Folder(string store, string key) => Path.Combine(store, key[..32]);

    /// <summary>True for a key as the gate writes one: 64 lowercase hex digits.</summary>
    public static bool IsKey(string key) => key.Length == 64 && key.All(char.IsAsciiHexDigitLower);

    /// <summary>The zip of entry folder <paramref name="folder"/>'s files.</summary>
    public static byte[] Pack(string folder)
    {
        using var buffer = new MemoryStream();
        using (var zip = new ZipArchive(buffer, ZipArchiveMode.Create, leaveOpen: true))
        {
            foreach (var file in Directory.EnumerateFiles(folder).Order(StringComparer.Ordinal))
            {
                zip.CreateEntryFromFile(file, Path.GetFileName(file), CompressionLevel.NoCompression);
            }
        }

        return buffer.ToArray();
    }

    /// <summary>
    /// Unpacks <paramref name="archive"/> as entry <paramref name="key"/> of <paramref name="store"/> (written whole or
    /// not at all), at most <paramref name="maxUnpackedBytes"/> of it; throws <see cref="ToolInputException"/> naming
    /// what is wrong with an archive of another shape.
    /// </summary>
    public static void Unpack(byte[] archive, string key, string store, long maxUnpackedBytes = MaxUnpackedBytes)
    {
        var incoming = Path.Combine(store, ".incoming-" + Guid.NewGuid().ToString("N"));
        try
        {
            Directory.CreateDirectory(incoming);
            using (var zip = Open(archive, key))
            {
                if (zip.Entries.Count > MaxFiles)
                {
                    throw Refused(key, $"it holds {zip.Entries.Count} files, more than {MaxFiles}");
                }

                long unpacked = 0;
                foreach (var entry in zip.Entries)
                {
                    if (!IsFileName(entry.FullName))
                    {
                        throw Refused(key, $"it holds '{entry.FullName}', not a file name of a store's entry");
                    }

                    using var from = entry.Open();
                    using var to = File.Create(Path.Combine(incoming, entry.FullName));
                    var chunk = new byte[81920];
                    int read;
                    while ((read = from.Read(chunk)) > 0)
                    {
                        unpacked += read;
                        if (unpacked > maxUnpackedBytes)
                        {
                            throw Refused(key, $"it unpacks to more than {maxUnpackedBytes} bytes");
                        }

                        to.Write(chunk, 0, read);
                    }
                }
            }

            if (KeyOf(incoming) != key)
            {
                throw Refused(key, $"its {ManifestName} is missing or names another key");
            }

            var folder = Folder(store, key);
            if (!Directory.Exists(folder))
            {
                Directory.Move(incoming, folder);
            }
        }
        finally
        {
            if (Directory.Exists(incoming))
            {
                Directory.Delete(incoming, recursive: true);
            }
        }
    }

    private static ZipArchive Open(byte[] archive, string key)
    {
        try
        {
            return new ZipArchive(new MemoryStream(archive, writable: false), ZipArchiveMode.Read);
        }
        catch (InvalidDataException e)
        {
            throw Refused(key, $"it is not a zip ({e.Message})");
        }
    }

    // What the gate names its entries' files: callgrind.out.PID.N.gz, perf.map.gz, inputs.txt.gz, stdout.txt, manifest.json.
    private static bool IsFileName(string name) =>
        name.Length is > 0 and <= 255 && char.IsAsciiLetterOrDigit(name[0]) && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-');

    // The key a folder's manifest names, or null when it has none that reads.
    private static string? KeyOf(string folder)
    {
        var manifest = Path.Combine(folder, ManifestName);
        if (!File.Exists(manifest))
        {
            return null;
        }

        try
        {
            using var document = JsonDocument.Parse(File.ReadAllBytes(manifest));
            return document.RootElement.ValueKind == JsonValueKind.Object && document.RootElement.TryGetProperty("Key", out var key)
                && key.ValueKind == JsonValueKind.String && key.GetString() is { } text && IsKey(text) ? text : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static ToolInputException Refused(string key, string why) =>
        new($"The stored count {key[..16]} from the results server is not a store's entry: {why}; it was not unpacked.");
}
