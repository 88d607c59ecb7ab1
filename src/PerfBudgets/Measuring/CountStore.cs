using System.Diagnostics;
using System.Globalization;
using System.IO.Compression;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
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
/// The key is a SHA-256 over the process's start (the program, every argument, the working folder, the variables that
/// steer the runtime, the C library and Valgrind: <see cref="KeyedVariable"/>), Valgrind's version, and the name and
/// content of every file in the host's folder (the host, the code under test, its configuration files). Files the
/// process maps from elsewhere (the runtime, native libraries, Valgrind's tool) are known only once it has run: the host
/// writes them (<see cref="MappedFiles"/>) and the entry keeps each one's digest. A stored run is reused only when its
/// key matches and every one of those files still has its digest, so a changed byte anywhere the process loaded
/// counts again. A host that wrote no list (one built against an older package) is never stored.
/// </para>
/// <para>
/// The store is <c>artifacts/reuse/</c> beside <c>budgets.json</c>, or the folder <c>PERF_REUSE_DIR</c> names (which a
/// CI cache can keep). <c>PERF_REUSE=off</c> counts everything (and still stores what it counted). The newest
/// <see cref="Keep"/> entries by last use are kept.
/// </para>
/// </remarks>
internal sealed partial class CountStore
{
    /// <summary>The variable that tells a workload host where to write the files it mapped (<see cref="MappedFiles"/>).</summary>
    internal const string MappedFilesVariable = "PERFBUDGETS_MAPPED_FILES";

    /// <summary>How many entries the store keeps, the most recently used.</summary>
    internal const int Keep = 32;

    private const string Format = "perfbudgets-count-reuse/1";
    private const string ManifestName = "manifest.json";
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
    /// The key of a counted run (<see cref="Key"/>), or null when the host's folder cannot be read as a whole (a file
    /// removed or locked while it is read): the run is then counted, not reused or stored.
    /// </summary>
    public static string? TryKey(ProcessStartInfo start, string valgrindVersion, string hostDirectory, string outputDirectory)
    {
        try
        {
            return Key(start, valgrindVersion, hostDirectory, outputDirectory);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// The key of a counted run: <paramref name="start"/> (with <paramref name="outputDirectory"/>, a fresh folder each
    /// run, read as a placeholder), <paramref name="valgrindVersion"/>, and every file of <paramref name="hostDirectory"/>.
    /// </summary>
    public static string Key(ProcessStartInfo start, string valgrindVersion, string hostDirectory, string outputDirectory)
    {
        ArgumentNullException.ThrowIfNull(start);
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        void Add(string line) => hash.AppendData(Encoding.UTF8.GetBytes(line + "\n"));
        Add(Format);
        Add($"valgrind {valgrindVersion}");
        Add($"program {start.FileName}");
        foreach (var argument in start.ArgumentList)
        {
            Add($"argument {argument.Replace(outputDirectory, "{output}", StringComparison.Ordinal)}");
        }

        Add($"folder {start.WorkingDirectory}");
        foreach (var (name, value) in start.Environment.Where(e => KeyedVariable(e.Key)).OrderBy(e => e.Key, StringComparer.Ordinal))
        {
            Add($"variable {name}={value}");
        }

        var host = Path.GetFullPath(hostDirectory);
        Add($"host {host}");
        foreach (var file in System.IO.Directory.EnumerateFiles(host, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            Add($"file {Path.GetRelativePath(host, file)} {Digest(file)}");
        }

        return Convert.ToHexStringLower(hash.GetHashAndReset());
    }

    /// <summary>
    /// The variables that are part of the key: those the runtime, the ASP.NET Core host, the dynamic loader, the C
    /// library and Valgrind read, and the locale and time zone. Others (a CI's run numbers, the test platform's own) are
    /// not, or no run would ever match; a workload that reads a variable of its own is counted again with
    /// <c>PERF_REUSE=off</c>.
    /// </summary>
    internal static bool KeyedVariable(string name) =>
        name != MappedFilesVariable
        && !name.StartsWith("DOTNET_CLI_", StringComparison.Ordinal)
        && (name.StartsWith("DOTNET_", StringComparison.Ordinal) || name.StartsWith("COMPlus_", StringComparison.OrdinalIgnoreCase)
            || name.StartsWith("CORECLR_", StringComparison.Ordinal) || name.StartsWith("ASPNETCORE_", StringComparison.Ordinal)
            || name.StartsWith("NETCORE_", StringComparison.Ordinal) || name.StartsWith("LD_", StringComparison.Ordinal)
            || name.StartsWith("GLIBC_", StringComparison.Ordinal) || name.StartsWith("MALLOC_", StringComparison.Ordinal)
            || name.StartsWith("VALGRIND", StringComparison.Ordinal) || name.StartsWith("LC_", StringComparison.Ordinal)
            || name is "LANG" or "LANGUAGE" or "TZ");

    /// <summary>
    /// The stored run of <paramref name="key"/>, when there is one and every file it mapped still has the digest it had;
    /// else null (and the run is counted). An entry that cannot be read is a miss, never an error.
    /// </summary>
    public StoredCount? TryLoad(string key)
    {
        if (!LookUp)
        {
            return null;
        }

        var entry = EntryFolder(key);
        var manifestPath = Path.Combine(entry, ManifestName);
        if (!File.Exists(manifestPath))
        {
            return null;
        }

        var scratch = System.IO.Directory.CreateTempSubdirectory("perfbudgets-reused-");
        try
        {
            var manifest = JsonSerializer.Deserialize<Manifest>(File.ReadAllText(manifestPath), Json);
            if (manifest is null || manifest.Format != Format || manifest.Key != key
                || manifest.Mapped.Any(m => !File.Exists(m.Path) || Digest(m.Path) != m.Sha256))
            {
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
            return null;
        }
        finally
        {
            scratch.Delete(recursive: true);
        }
    }

    /// <summary>
    /// Stores a counted run under <paramref name="key"/>: its standard output, its dumps, its perf map and the digest of
    /// every file outside <paramref name="hostDirectory"/> that the host listed in <paramref name="mappedFilesList"/>.
    /// Nothing is stored when the host wrote no list or a file it mapped is gone; a store that cannot be written only
    /// means the next run counts again.
    /// </summary>
    public void Save(string key, string hostDirectory, string mappedFilesList, string standardOutput, IEnumerable<string> dumpFiles, string? perfMapFile)
    {
        if (!File.Exists(mappedFilesList))
        {
            return;
        }

        var host = Path.GetFullPath(hostDirectory) + Path.DirectorySeparatorChar;
        var temporary = Path.GetFullPath(Path.GetTempPath());
        var mapped = new List<MappedFile>();
        foreach (var path in File.ReadLines(mappedFilesList).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal))
        {
            if (!IsInput(path, host, temporary))
            {
                continue;
            }

            if (!File.Exists(path))
            {
                return;
            }

            mapped.Add(new MappedFile(path, Digest(path)));
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
            var manifest = new Manifest(Format, key, DateTimeOffset.UtcNow, HarnessEnvironment.RunId ?? TestInvocation.Id, mapped, dumps);
            File.WriteAllText(Path.Combine(incoming, ManifestName), JsonSerializer.Serialize(manifest, Json));
            var entry = EntryFolder(key);
            if (System.IO.Directory.Exists(entry))
            {
                System.IO.Directory.Delete(entry, recursive: true);
            }

            System.IO.Directory.Move(incoming, entry);
            Prune();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Another run stored the same key at the same moment, or the folder is not writable: the next run counts again.
        }
        finally
        {
            if (System.IO.Directory.Exists(incoming))
            {
                System.IO.Directory.Delete(incoming, recursive: true);
            }
        }
    }

    // A mapped path that is an input: a file of the machine (not /proc, /dev, a memory file or a deleted one), outside
    // the host's folder (in the key already) and outside the temporary folder (Valgrind's pipes to vgdb, made per run).
    private static bool IsInput(string path, string host, string temporary) =>
        path.StartsWith('/') && !path.EndsWith(" (deleted)", StringComparison.Ordinal)
        && !path.StartsWith("/proc/", StringComparison.Ordinal) && !path.StartsWith("/dev/", StringComparison.Ordinal)
        && !path.StartsWith("/sys/", StringComparison.Ordinal) && !path.StartsWith("/memfd:", StringComparison.Ordinal)
        && !path.StartsWith(host, StringComparison.Ordinal) && !path.StartsWith(temporary, StringComparison.Ordinal);

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

    internal static string Digest(string path)
    {
        using var file = File.OpenRead(path);
        return Convert.ToHexStringLower(SHA256.HashData(file));
    }

    private static void Pack(string source, string destination)
    {
        using var input = File.OpenRead(source);
        using var output = File.Create(destination);
        using var gzip = new GZipStream(output, CompressionLevel.Fastest);
        input.CopyTo(gzip);
    }

    private static string Unpack(string source, string destination)
    {
        using (var input = File.OpenRead(source))
        using (var gzip = new GZipStream(input, CompressionMode.Decompress))
        using (var output = File.Create(destination))
        {
            gzip.CopyTo(output);
        }

        return destination;
    }

    /// <summary>The paths of the files a process maps, from its <c>/proc/PID/maps</c> (each once, in the order they appear).</summary>
    internal static IEnumerable<string> MappedFiles(string mapsFile) =>
        File.ReadLines(mapsFile).Select(line => MapsLine().Match(line)).Where(m => m.Success).Select(m => m.Groups[1].Value).Distinct(StringComparer.Ordinal);

    // address perms offset device inode path: the path is the rest of the line, after the fifth field's spaces.
    [GeneratedRegex(@"^\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+(/.*)$")]
    private static partial Regex MapsLine();

    private sealed record MappedFile(string Path, string Sha256);

    private sealed record Manifest(string Format, string Key, DateTimeOffset MeasuredUtc, string? RunId, IReadOnlyList<MappedFile> Mapped, IReadOnlyList<string> Dumps);
}

/// <summary>A counted run read back from the store: what <see cref="InstructionMeter.RunProcess"/> returns instead of running it.</summary>
internal sealed record StoredCount(string StandardOutput, IReadOnlyList<CallgrindProfile> Parts, PerfMap Map, ReusedCount Reused);
