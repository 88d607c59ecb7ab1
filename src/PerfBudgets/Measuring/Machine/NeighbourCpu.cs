using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// How much of the machine's CPU went to other processes than this one and its descendants over a stretch of time:
/// the machine's busy time (<c>/proc/stat</c>) less this process tree's CPU time (<c>/proc/PID/stat</c> of every
/// descendant, with the time of the children each has reaped), over the machine's capacity. A timed figure (a rate, a
/// latency, CPU time per request beside a sibling thread) is worse when neighbours take the cores; a regression makes
/// it worse on a quiet machine too. The gate judges a broken timed figure by this share: on a machine the tests have
/// mostly to themselves it fails, beside neighbours it is measured again, and when the neighbours were busy in every
/// attempt it is reported as not measured, with the share, rather than as a regression.
/// </summary>
internal static class NeighbourCpu
{
    /// <summary>What <c>/proc</c> said at one moment: the machine's busy and total ticks, and this tree's.</summary>
    /// <param name="MachineBusy">Ticks the machine's CPUs spent on anything but idle and waiting for I/O.</param>
    /// <param name="MachineTotal">All ticks of the machine's CPUs.</param>
    /// <param name="Tree">Ticks of this process and its descendants, the children they reaped included.</param>
    public readonly record struct Snapshot(long MachineBusy, long MachineTotal, long Tree);

    /// <summary>The machine's and this tree's CPU ticks now; null where <c>/proc</c> cannot tell (not Linux).</summary>
    public static Snapshot? Take()
    {
        try
        {
            if (!OperatingSystem.IsLinux() || ReadMachine() is not { } machine)
            {
                return null;
            }

            return new Snapshot(machine.Busy, machine.Total, ReadTree(Environment.ProcessId));
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Fewer of the machine's ticks than this (half a second of one CPU at 100 ticks a second) tell nothing.</summary>
    public const long MinimumTicks = 50;

    /// <summary>
    /// The neighbours' share of the machine's CPU capacity between <paramref name="before"/> and
    /// <paramref name="after"/>, from 0 to 1; null when either is unknown or the window was too short to tell.
    /// </summary>
    public static double? ShareBetween(Snapshot? before, Snapshot? after)
    {
        if (before is not { } a || after is not { } b || b.MachineTotal - a.MachineTotal < MinimumTicks)
        {
            return null;
        }

        var neighbours = (b.MachineBusy - a.MachineBusy) - (b.Tree - a.Tree);
        return Math.Clamp(neighbours / (double)(b.MachineTotal - a.MachineTotal), 0, 1);
    }

    /// <summary>Starts a window now; the function it answers ends it and answers the neighbours' share over it.</summary>
    public static Func<double?> Window()
    {
        var before = Take();
        return () => ShareBetween(before, Take());
    }

    // The aggregate "cpu" line: user nice system idle iowait irq softirq steal (guest time is inside user already).
    private static (long Busy, long Total)? ReadMachine()
    {
        var line = File.ReadLines("/proc/stat").FirstOrDefault(l => l.StartsWith("cpu ", StringComparison.Ordinal));
        if (line is null)
        {
            return null;
        }

        var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8)
            .Select(f => long.Parse(f, CultureInfo.InvariantCulture)).ToArray();
        if (fields.Length < 5)
        {
            return null;
        }

        var total = fields.Sum();
        var idle = fields[3] + fields[4];
        return (total - idle, total);
    }

    // utime + stime + cutime + cstime of the process and of every descendant alive now, in clock ticks (the unit of
    // /proc/stat). A child that ended and was reaped is in its parent's cutime and cstime.
    private static long ReadTree(int root)
    {
        var processes = new Dictionary<int, (int Parent, long Ticks)>();
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(folder), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && ReadProcess(folder) is { } process)
            {
                processes[pid] = process;
            }
        }

        var children = processes.GroupBy(p => p.Value.Parent).ToDictionary(g => g.Key, g => g.Select(p => p.Key).ToList());
        var ticks = 0L;
        var pending = new Stack<int>([root]);
        while (pending.Count > 0)
        {
            var pid = pending.Pop();
            if (processes.TryGetValue(pid, out var process))
            {
                ticks += process.Ticks;
            }

            foreach (var child in children.GetValueOrDefault(pid) ?? [])
            {
                pending.Push(child);
            }
        }

        return ticks;
    }

    // /proc/PID/stat: "pid (comm) state ppid ..."; the command may hold spaces and parentheses, so the fields are
    // counted from the last ')'. After it: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17).
    private static (int Parent, long Ticks)? ReadProcess(string folder)
    {
        string text;
        try
        {
            text = File.ReadAllText(Path.Combine(folder, "stat"));
        }
        catch (IOException)
        {
            return null; // It ended meanwhile.
        }

        var end = text.LastIndexOf(')');
        if (end < 0)
        {
            return null;
        }

        var fields = text[(end + 2)..].Split(' ');
        if (fields.Length < 15)
        {
            return null;
        }

        long Field(int number) => long.Parse(fields[number - 3], CultureInfo.InvariantCulture);
        return ((int)Field(4), Field(14) + Field(15) + Field(16) + Field(17));
    }
}
