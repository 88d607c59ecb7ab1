using System.Diagnostics;
using System.Security.Cryptography;
using System.Text.RegularExpressions;

namespace PerfBudgets.Measuring;

/// <summary>
/// What a counted run's result depends on, as a key for <see cref="CountStore"/>: a SHA-256 over the process's start
/// (the program, every argument, the working folder, the variables that steer the runtime, the C library and
/// Valgrind: <see cref="KeyedVariable"/>), Valgrind's version, the kernel's release, and the name and content of every file in the host's
/// folder (the host, the code under test, its configuration files). The files the process maps from elsewhere are
/// known only once it has run: the host lists them (<see cref="MappedFiles"/>) and the store keeps their digests.
/// </summary>
internal static partial class CountKey
{
    /// <summary>The variable that tells a workload host where to write the files it mapped (<see cref="MappedFiles"/>).</summary>
    internal const string MappedFilesVariable = "PERFBUDGETS_MAPPED_FILES";

    /// <summary>The version of the key and of the store's entries: a change to either makes every stored entry a miss.</summary>
    internal const string Format = "perfbudgets-count-reuse/1";

    /// <summary>
    /// The inputs of a counted run (<see cref="Inputs"/>), or null when the host's folder cannot be read as a whole (a
    /// file removed or locked while it is read): the run is then counted, not reused or stored.
    /// </summary>
    public static CountInputs? TryOf(ProcessStartInfo start, string valgrindVersion, string hostDirectory, string outputDirectory, IEnumerable<string>? steering = null, string? driverDirectory = null)
    {
        try
        {
            return Inputs(start, valgrindVersion, hostDirectory, outputDirectory, steering, driverDirectory);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The key of a counted run: the digest of its <see cref="Inputs"/>.</summary>
    public static string Of(ProcessStartInfo start, string valgrindVersion, string hostDirectory, string outputDirectory, IEnumerable<string>? steering = null) =>
        Inputs(start, valgrindVersion, hostDirectory, outputDirectory, steering).Key;

    /// <summary>
    /// The inputs of a counted run, one line each, and their digest: <paramref name="start"/> (with
    /// <paramref name="outputDirectory"/>, a fresh folder each run, read as a placeholder), <paramref name="valgrindVersion"/>,
    /// every file of <paramref name="hostDirectory"/>, and <paramref name="steering"/>: what the meter tells a running host
    /// beyond its start (a served workload's name and how many operations each phase runs), one line each; and, for a
    /// server driven by a test (<see cref="CallgrindServer.MeasureSessionAsync"/>), every file of
    /// <paramref name="driverDirectory"/>, the folder of the code that sends the requests, when it is not the host's.
    /// </summary>
    public static CountInputs Inputs(ProcessStartInfo start, string valgrindVersion, string hostDirectory, string outputDirectory, IEnumerable<string>? steering = null, string? driverDirectory = null)
    {
        ArgumentNullException.ThrowIfNull(start);
        var lines = new List<string> { Format, $"valgrind {valgrindVersion}", $"kernel {KernelRelease}", $"program {start.FileName}" };
        lines.AddRange(start.ArgumentList.Select(argument => $"argument {argument.Replace(outputDirectory, "{output}", StringComparison.Ordinal)}"));
        lines.Add($"folder {start.WorkingDirectory}");
        lines.AddRange(start.Environment.Where(e => KeyedVariable(e.Key)).OrderBy(e => e.Key, StringComparer.Ordinal).Select(e => $"variable {e.Key}={e.Value}"));
        var host = Path.GetFullPath(hostDirectory);
        lines.Add($"host {host}");
        lines.AddRange(FileLines("file", host));
        if (driverDirectory is not null && Path.GetFullPath(driverDirectory) is var driver && driver.TrimEnd('/') != host.TrimEnd('/'))
        {
            lines.Add($"driver {driver}");
            lines.AddRange(FileLines("driverfile", driver));
        }

        lines.AddRange((steering ?? []).Select(line => $"steering {line}"));
        return new CountInputs(lines);
    }

    // Every file of a folder, by its path in the folder and its digest, in a fixed order.
    private static IEnumerable<string> FileLines(string kind, string folder) =>
        System.IO.Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal)
            .Select(file => $"{kind} {Path.GetRelativePath(folder, file)} {Digest(file)}");

    /// <summary>
    /// The variables that are part of the key: those the runtime, the ASP.NET Core host, the dynamic loader, the C
    /// library and Valgrind read, and the locale and time zone. Others (a CI's run numbers, the test platform's own) are
    /// not, or no run would ever match; a workload that reads a variable of its own is counted again with
    /// <c>PERF_REUSE=off</c>.
    /// </summary>
    internal static bool KeyedVariable(string name) =>
        name != MappedFilesVariable
        && !name.StartsWith("DOTNET_CLI_", StringComparison.Ordinal) && !SdkVariables.Contains(name)
        && (name.StartsWith("DOTNET_", StringComparison.Ordinal) || name.StartsWith("COMPlus_", StringComparison.OrdinalIgnoreCase)
            || name.StartsWith("CORECLR_", StringComparison.Ordinal) || name.StartsWith("ASPNETCORE_", StringComparison.Ordinal)
            || name.StartsWith("NETCORE_", StringComparison.Ordinal) || name.StartsWith("LD_", StringComparison.Ordinal)
            || name.StartsWith("GLIBC_", StringComparison.Ordinal) || name.StartsWith("MALLOC_", StringComparison.Ordinal)
            || name.StartsWith("VALGRIND", StringComparison.Ordinal) || name.StartsWith("LC_", StringComparison.Ordinal)
            || name is "LANG" or "LANGUAGE" or "TZ");

    // Variables with the runtime's prefix that only the SDK, NuGet or the test platform read: a CI image or a shell that
    // sets one (or the dotnet command that started the tests, which sets DOTNET_HOST_PATH) would otherwise never share a
    // key with another. DOTNET_ROOT stays keyed: an app host finds its runtime by it.
    private static readonly HashSet<string> SdkVariables = new(StringComparer.Ordinal)
    {
        "DOTNET_NOLOGO", "DOTNET_HOST_PATH", "DOTNET_GENERATE_ASPNET_CERTIFICATE", "DOTNET_NUGET_SIGNATURE_VERIFICATION",
        "DOTNET_SKIP_FIRST_TIME_EXPERIENCE", "DOTNET_ADD_GLOBAL_TOOLS_TO_PATH", "DOTNET_SKIP_WORKLOAD_INTEGRITY_CHECK",
    };

    // A mapped path that is an input: a file of the machine (not /proc, /dev, a memory file or a deleted one), outside
    // the host's folder (in the key already) and outside the temporary folder (Valgrind's pipes to vgdb and the
    // runtime's shared memory, made per run), except under the measuring process's own folder, where the pinned runtime
    // is laid out: a repository cloned into the temporary folder (a CI runner's work folder may be) keeps its runtime
    // an input.
    internal static bool IsInput(string path, string host, string temporary, string measuringFolder) =>
        path.StartsWith('/') && !path.EndsWith(" (deleted)", StringComparison.Ordinal)
        && !path.StartsWith("/proc/", StringComparison.Ordinal) && !path.StartsWith("/dev/", StringComparison.Ordinal)
        && !path.StartsWith("/sys/", StringComparison.Ordinal) && !path.StartsWith("/memfd:", StringComparison.Ordinal)
        && !path.StartsWith(host, StringComparison.Ordinal)
        && (!path.StartsWith(temporary, StringComparison.Ordinal) || path.StartsWith(measuringFolder, StringComparison.Ordinal));

    // The kernel answers the system calls a count includes, and may answer a new one differently (a call it does not
    // have sends the C library down another path), so a run stored under another kernel is not this one's.
    private static string KernelRelease => File.Exists("/proc/sys/kernel/osrelease") ? File.ReadAllText("/proc/sys/kernel/osrelease").Trim() : "unknown";

    internal static string Digest(string path)
    {
        using var file = File.OpenRead(path);
        return Convert.ToHexStringLower(SHA256.HashData(file));
    }

    /// <summary>The paths of the files a process maps, from its <c>/proc/PID/maps</c> (each once, in the order they appear).</summary>
    internal static IEnumerable<string> MappedFiles(string mapsFile) =>
        File.ReadLines(mapsFile).Select(line => MapsLine().Match(line)).Where(m => m.Success).Select(m => m.Groups[1].Value).Distinct(StringComparer.Ordinal);

    // address perms offset device inode path: the path is the rest of the line, after the fifth field's spaces.
    [GeneratedRegex(@"^\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+(/.*)$")]
    private static partial Regex MapsLine();
}
