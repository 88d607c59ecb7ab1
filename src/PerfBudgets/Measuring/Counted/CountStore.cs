using System.Globalization;
using System.IO.Compression;
using System.Text.Json;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Measuring;

/// <summary>
/// The counted runs kept for reuse: a Callgrind run of a workload host is a function of its inputs, so a run whose
/// inputs are byte for byte those of a stored one is not run again; its stored profiles are read instead, and the
/// measurement says so (<see cref="ReusedCount"/>).
/// </summary>
/// <remarks>
/// <para>
/// An entry is found by its key (<see cref="CountKey"/>: the start, Valgrind, every file of the host's folder) and
/// keeps the digest of every file the process mapped from elsewhere (the runtime, native libraries, Valgrind's tool),
/// as the host listed them; it is reused only while each of those still has its digest, so a changed byte anywhere
/// the process loaded counts again. A host that wrote no list (one built against an older package) is never stored.
/// </para>
/// <para>
/// The store is <c>artifacts/reuse/</c> beside <c>budgets.json</c>, or the folder <c>PERF_REUSE_DIR</c> names (which a
/// CI cache can keep). <c>PERF_REUSE=off</c> counts everything (and still stores what it counted). The newest
/// <see cref="Keep"/> entries by last use are kept.
/// </para>
/// </remarks>
internal sealed class CountStore
{
    /// <summary>How many entries the store keeps, the most recently used.</summary>
    internal const int Keep = 32;

    private const string ManifestName = "manifest.json";

    // The run's inputs, one per line (CountInputs.Lines), gzipped: what a later miss compares its own with.
    private const string InputsName = "inputs.txt.gz";
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true };

    internal CountStore(string directory, bool lookUp)
    {
        Directory = Path.GetFullPath(directory);
        LookUp = lookUp;
    }

    /// <summary>The store's folder.</summary>
    public string Directory { get; }

    /// <summary>False under <c>PERF_REUSE=off</c>: nothing is reused, what is counted is still stored.</summary>
    public bool LookUp { get; }

    /// <summary>
    /// The store this process uses: <c>PERF_REUSE_DIR</c>, else <c>artifacts/reuse/</c> beside the budget file; null
    /// when there is neither (nothing is stored or reused).
    /// </summary>
    public static CountStore? Open()
    {
        var directory = HarnessEnvironment.ReuseDirectory;
        if (directory is null)
        {
            try
            {
                directory = Path.Combine(Path.GetDirectoryName(BudgetBook.Locate(HarnessEnvironment.BudgetsFile))!, "artifacts", "reuse");
            }
            catch (BudgetFileException)
            {
                return null;
            }
        }

        return new CountStore(directory, lookUp: !HarnessEnvironment.ReuseOff);
    }

    /// <summary>
    /// The stored run of <paramref name="inputs"/>, when there is one and every file it mapped still has the digest it
    /// had; else null (and the run is counted), with <paramref name="notReusedBecause"/> saying why: reuse is off, a file
    /// the stored run mapped has changed, or no stored run had these inputs and which of them differ from the nearest
    /// stored run's. An entry that cannot be read is a miss, never an error.
    /// </summary>
    public StoredCount? TryLoad(CountInputs inputs, out string? notReusedBecause)
    {
        ArgumentNullException.ThrowIfNull(inputs);
        notReusedBecause = null;
        if (!LookUp)
        {
            notReusedBecause = $"{HarnessEnvironment.ReuseVariable}=off";
            return null;
        }

        var key = inputs.Key;
        var entry = EntryFolder(key);
        var manifestPath = Path.Combine(entry, ManifestName);
        if (!File.Exists(manifestPath))
        {
            notReusedBecause = Nearest(inputs);
            return null;
        }

        var scratch = System.IO.Directory.CreateTempSubdirectory("perfbudgets-reused-");
        try
        {
            var manifest = JsonSerializer.Deserialize<Manifest>(File.ReadAllText(manifestPath), Json);
            if (manifest is null || manifest.Format != CountKey.Format || manifest.Key != key)
            {
                notReusedBecause = $"the store's entry {key[..16]} is of another format";
                return null;
            }

            if (manifest.Mapped.FirstOrDefault(m => !File.Exists(m.Path)) is { } gone)
            {
                notReusedBecause = $"the stored run with these inputs ({Counted(manifest)}) mapped {gone.Path}, which is gone";
                return null;
            }

            if (manifest.Mapped.FirstOrDefault(m => CountKey.Digest(m.Path) != m.Sha256) is { } changed)
            {
                notReusedBecause = $"the stored run with these inputs ({Counted(manifest)}) mapped {changed.Path}, which has changed since";
                return null;
            }

            var parts = manifest.Dumps.Select(name => CallgrindProfile.Read(Unpack(Path.Combine(entry, name + ".gz"), Path.Combine(scratch.FullName, name)))).ToList();
            var mapPath = Path.Combine(entry, "perf.map.gz");
            var map = File.Exists(mapPath) ? PerfMap.Read(Unpack(mapPath, Path.Combine(scratch.FullName, "perf.map"))) : PerfMap.Empty;
            var output = File.ReadAllText(Path.Combine(entry, "stdout.txt"));
            File.SetLastWriteTimeUtc(manifestPath, DateTime.UtcNow);
            return new StoredCount(output, parts, map, new ReusedCount(manifest.MeasuredUtc, manifest.RunId, key));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException or InvalidDataException or FormatException or InstructionMeterException)
        {
            notReusedBecause = $"the store's entry {key[..16]} could not be read ({e.Message})";
            return null;
        }
        finally
        {
            scratch.Delete(recursive: true);
        }
    }

    // Why no entry has these inputs, told by the stored run whose inputs differ from them least, of the same kind when
    // there is one (a served workload's against another served workload's, not a server's session): which ones differ.
    private string Nearest(CountInputs inputs)
    {
        var nearest = (Manifest: (Manifest?)null, Differences: (IReadOnlyList<string>?)null, SameKind: false);
        var entries = System.IO.Directory.Exists(Directory) ? new DirectoryInfo(Directory).EnumerateDirectories().Where(d => !d.Name.StartsWith('.')).ToList() : [];
        foreach (var entry in entries)
        {
            try
            {
                var inputsPath = Path.Combine(entry.FullName, InputsName);
                if (!File.Exists(inputsPath) || JsonSerializer.Deserialize<Manifest>(File.ReadAllText(Path.Combine(entry.FullName, ManifestName)), Json) is not { } manifest)
                {
                    continue;
                }

                var lines = ReadLines(inputsPath);
                var differences = inputs.Differences(lines);
                var sameKind = CountInputs.KindOf(lines) == inputs.Kind;
                if (nearest.Differences is null || (sameKind && !nearest.SameKind)
                    || (sameKind == nearest.SameKind && differences.Count < nearest.Differences.Count))
                {
                    nearest = (manifest, differences, sameKind);
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException or InvalidDataException)
            {
                // An entry being written or pruned by another run: not the nearest.
            }
        }

        if (nearest is not ({ } closest, { } shown, _))
        {
            return entries.Count == 0 ? $"the store {Directory} holds no counted run yet" : $"none of the {entries.Count} stored runs in {Directory} had these inputs";
        }

        return $"no stored run had these inputs; the nearest ({Counted(closest)}) differs in {shown.Count}: {string.Join("; ", shown.Take(4))}{(shown.Count > 4 ? $"; and {shown.Count - 4} more" : string.Empty)}";
    }

    private static string Counted(Manifest manifest) => string.Create(CultureInfo.InvariantCulture,
        $"counted {manifest.MeasuredUtc.UtcDateTime:yyyy-MM-dd HH:mm} UTC{(manifest.RunId is null ? string.Empty : $" in run {manifest.RunId}")}");

    private static List<string> ReadLines(string gzipped)
    {
        using var reader = new StreamReader(Decompressing(gzipped));
        var lines = new List<string>();
        while (reader.ReadLine() is { } line)
        {
            lines.Add(line);
        }

        return lines;
    }

    /// <summary>
    /// Stores a counted run under the key of <paramref name="inputs"/>, with the inputs themselves: its standard output, its dumps, its perf map and the digest of
    /// every file outside <paramref name="hostDirectory"/> that the host listed in <paramref name="mappedFilesList"/>.
    /// Nothing is stored when the host wrote no list or a file it mapped is gone; a store that cannot be written only
    /// means the next run counts again. Answers null when stored, else why not, for the measurement's detail.
    /// </summary>
    public string? Save(CountInputs inputs, string hostDirectory, string mappedFilesList, string standardOutput, IEnumerable<string> dumpFiles, string? perfMapFile)
    {
        ArgumentNullException.ThrowIfNull(inputs);
        var key = inputs.Key;
        if (!File.Exists(mappedFilesList))
        {
            return $"the host listed no file it mapped ({CountKey.MappedFilesVariable}: a host built against an older PerfBudgets, or one that did not measure through InstructionRegion)";
        }

        var host = Path.GetFullPath(hostDirectory) + Path.DirectorySeparatorChar;
        var temporary = Path.GetFullPath(Path.GetTempPath());
        var measuring = Path.GetFullPath(AppContext.BaseDirectory);
        var mapped = new List<MappedFile>();
        foreach (var path in File.ReadLines(mappedFilesList).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal))
        {
            if (!CountKey.IsInput(path, host, temporary, measuring))
            {
                continue;
            }

            if (!File.Exists(path))
            {
                return $"a file the host mapped is gone: {path}";
            }

            mapped.Add(new MappedFile(path, CountKey.Digest(path)));
        }

        var incoming = Path.Combine(Directory, ".incoming-" + Guid.NewGuid().ToString("N"));
        try
        {
            System.IO.Directory.CreateDirectory(incoming);
            var dumps = new List<string>();
            foreach (var dump in dumpFiles)
            {
                var name = Path.GetFileName(dump);
                Pack(dump, Path.Combine(incoming, name + ".gz"));
                dumps.Add(name);
            }

            if (perfMapFile is not null && File.Exists(perfMapFile))
            {
                Pack(perfMapFile, Path.Combine(incoming, "perf.map.gz"));
            }

            File.WriteAllText(Path.Combine(incoming, "stdout.txt"), standardOutput);
            using (var writer = new StreamWriter(Compressing(Path.Combine(incoming, InputsName))))
            {
                foreach (var line in inputs.Lines)
                {
                    writer.WriteLine(line);
                }
            }

            var manifest = new Manifest(CountKey.Format, key, DateTimeOffset.UtcNow, HarnessEnvironment.RunId ?? TestInvocation.Id, mapped, dumps);
            File.WriteAllText(Path.Combine(incoming, ManifestName), JsonSerializer.Serialize(manifest, Json));
            var entry = EntryFolder(key);
            if (System.IO.Directory.Exists(entry))
            {
                System.IO.Directory.Delete(entry, recursive: true);
            }

            System.IO.Directory.Move(incoming, entry);
            Prune();
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Another run stored the same key at the same moment, or the folder is not writable: the next run counts again.
            return $"the store {Directory} could not be written: {e.Message}";
        }
        finally
        {
            if (System.IO.Directory.Exists(incoming))
            {
                System.IO.Directory.Delete(incoming, recursive: true);
            }
        }
    }

    /// <summary>
    /// Stores a counted run through <paramref name="save"/> when there is a store and a key; answers why the run was not
    /// stored (for the measurement's detail), or null when it was.
    /// </summary>
    public static string? SaveIfKeyed(CountStore? store, CountInputs? key, Func<CountStore, CountInputs, string?> save) =>
        store is null
            ? "there is no store: no budgets.json above the test and no PERF_REUSE_DIR"
            : key is null
                ? "the host's folder could not be read whole (a file was changed or locked while it was hashed)"
                : save(store, key);

    private string EntryFolder(string key) => Path.Combine(Directory, key[..32]);

    private void Prune()
    {
        var entries = new DirectoryInfo(Directory).EnumerateDirectories()
            .Where(d => !d.Name.StartsWith('.'))
            .Select(d => (Folder: d, Used: File.Exists(Path.Combine(d.FullName, ManifestName)) ? File.GetLastWriteTimeUtc(Path.Combine(d.FullName, ManifestName)) : DateTime.MinValue))
            .OrderByDescending(e => e.Used)
            .Skip(Keep);
        foreach (var (folder, _) in entries)
        {
            folder.Delete(recursive: true);
        }
    }

    private static void Pack(string source, string destination)
    {
        using var input = File.OpenRead(source);
        using var gzip = Compressing(destination);
        input.CopyTo(gzip);
    }

    private static string Unpack(string source, string destination)
    {
        using (var gzip = Decompressing(source))
        using (var output = File.Create(destination))
        {
            gzip.CopyTo(output);
        }

        return destination;
    }

    // Every file of an entry but its manifest and standard output is gzipped; these own the file they open.
    private static GZipStream Compressing(string destination) => new(File.Create(destination), CompressionLevel.Fastest);

    private static GZipStream Decompressing(string source) => new(File.OpenRead(source), CompressionMode.Decompress);

    private sealed record MappedFile(string Path, string Sha256);

    private sealed record Manifest(string Format, string Key, DateTimeOffset MeasuredUtc, string? RunId, IReadOnlyList<MappedFile> Mapped, IReadOnlyList<string> Dumps);
}
