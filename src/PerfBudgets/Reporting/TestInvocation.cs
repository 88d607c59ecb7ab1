using System.Globalization;

namespace PerfBudgets.Reporting;

/// <summary>
/// The <c>dotnet test</c> command this process runs under, found among its ancestors: at a solution's root one
/// <c>dotnet test</c> starts a test host per project, and their results are one run's (one row set in
/// <c>summary.md</c>, one run in <c>history.jsonl</c>), not one run per project.
/// </summary>
/// <remarks>
/// Read from <c>/proc</c> (Linux): elsewhere, or when no ancestor is a <c>dotnet test</c> (another runner, MSBuild's
/// reused build nodes), there is none and each process is a run of its own unless <c>PERF_RUN_ID</c> names one.
/// </remarks>
internal static class TestInvocation
{
    private const int MaxDepth = 16;

    /// <summary>An id for the nearest <c>dotnet test</c> ancestor (its start time in UTC and its process id), or null.</summary>
    public static string? Id { get; } = Find();

    private static string? Find()
    {
        try
        {
            if (!OperatingSystem.IsLinux() || !File.Exists("/proc/self/stat"))
            {
                return null;
            }

            var pid = Environment.ProcessId;
            for (var depth = 0; depth < MaxDepth && pid > 1; depth++)
            {
                var stat = Stat(pid);
                if (stat is null)
                {
                    return null;
                }

                var (parent, startTicks) = stat.Value;
                if (IsDotnetTest(pid))
                {
                    return $"{StartedUtc(startTicks):yyyyMMdd'T'HHmmss'Z'}-dotnet-test-{pid}";
                }

                pid = parent;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or OverflowException or IndexOutOfRangeException or ArgumentOutOfRangeException or InvalidOperationException)
        {
            // A process that ended while read, a /proc that hides its neighbours or reads otherwise: no shared id, never
            // a gate that cannot start.
        }

        return null;
    }

    // The parent's id and the start time (field 22, clock ticks since boot) from /proc/PID/stat; the command name
    // (field 2) is in parentheses and may hold spaces, so fields are counted after its closing one.
    private static (int Parent, long StartTicks)? Stat(int pid)
    {
        var path = $"/proc/{pid}/stat";
        if (!File.Exists(path))
        {
            return null;
        }

        var text = File.ReadAllText(path);
        var fields = text[(text.LastIndexOf(')') + 2)..].Split(' ');
        return (int.Parse(fields[1], CultureInfo.InvariantCulture), long.Parse(fields[19], CultureInfo.InvariantCulture));
    }

    // The command line of `dotnet test …`: the host (dotnet, by whatever path) and "test" as its first argument.
    private static bool IsDotnetTest(int pid)
    {
        var arguments = File.ReadAllText($"/proc/{pid}/cmdline").Split('\0');
        return arguments.Length > 1
            && Path.GetFileName(arguments[0]) is "dotnet" or "dotnet.exe"
            && arguments[1] == "test";
    }

    // Boot time (btime in /proc/stat) plus the ticks since; Linux reports them at 100 a second (USER_HZ).
    private static DateTime StartedUtc(long startTicks)
    {
        var boot = File.ReadLines("/proc/stat").First(l => l.StartsWith("btime ", StringComparison.Ordinal));
        var bootSeconds = long.Parse(boot.AsSpan(6), CultureInfo.InvariantCulture);
        return DateTime.UnixEpoch.AddSeconds(bootSeconds + (startTicks / 100));
    }
}
