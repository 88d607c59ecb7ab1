using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>A process's resident memory as the Linux kernel reports it in <c>/proc/PID/status</c>.</summary>
public static class ProcessMemory
{
    /// <summary>
    /// The peak resident set size in bytes (<c>VmHWM</c>, the high-water mark since the process started), or null
    /// where there is no <c>/proc</c> (not Linux) or the process is gone.
    /// </summary>
    public static long? PeakWorkingSetBytes(int processId) => StatusBytes(processId, "VmHWM:");

    /// <summary>The resident set size in bytes now (<c>VmRSS</c>), or null where there is no <c>/proc</c>.</summary>
    public static long? WorkingSetBytes(int processId) => StatusBytes(processId, "VmRSS:");

    /// <summary>
    /// The garbage collector's mode as the process shows it: server GC runs one thread per heap named
    /// <c>.NET Server GC</c>, workstation GC none (its background thread is <c>.NET BGC</c>, started when first
    /// needed). Returns the number of server-GC threads (0 for workstation GC), or null where there is no <c>/proc</c>.
    /// </summary>
    public static int? ServerGcThreads(int processId)
    {
        try
        {
            var tasks = Directory.GetDirectories($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/task");
            return tasks.Count(task => ReadOrEmpty(Path.Combine(task, "comm")).TrimEnd('\n') == ServerGcThreadName);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Reads one <c>kB</c> line of a status text: <c>VmHWM:	  123456 kB</c> gives 126,418,944.</summary>
    internal static long? ParseStatusBytes(string status, string field)
    {
        ArgumentNullException.ThrowIfNull(status);
        foreach (var line in status.Split('\n'))
        {
            if (!line.StartsWith(field, StringComparison.Ordinal))
            {
                continue;
            }

            var parts = line[field.Length..].Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length == 2 && parts[1] == "kB" && long.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var kilobytes))
            {
                return kilobytes * 1024;
            }
        }

        return null;
    }

    // The runtime's name for a server GC thread (a Linux thread name is at most 15 characters).
    private const string ServerGcThreadName = ".NET Server GC";

    private static string ReadOrEmpty(string path)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return string.Empty; // the thread ended between listing and reading
        }
    }

    private static long? StatusBytes(int processId, string field)
    {
        try
        {
            return ParseStatusBytes(File.ReadAllText($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/status"), field);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
