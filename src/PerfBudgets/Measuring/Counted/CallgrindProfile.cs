using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// One part of a Callgrind profile (one dump: <c>callgrind.out.PID.N</c>): its trigger, the thread it covers, the
/// totals of every event, and each function's exclusive instruction count, system calls and (with the cache
/// simulation) estimated cycles.
/// </summary>
/// <remarks>
/// The file format is Callgrind's documented one: <c>events:</c> names the columns, <c>fn=</c> starts a function
/// (names are compressed as <c>(id) name</c> the first time and <c>(id)</c> after), a line of numbers is a cost (a
/// position, then the events, missing ones 0), and the one cost line after <c>calls=</c> is the inclusive cost of that
/// call, which belongs to the callee and is left out of the caller's exclusive count. Dumped with
/// <c>--dump-instr=yes --compress-pos=no</c> (<c>positions: instr</c>), a cost line starts with its instruction's
/// address, and the cost of code without a symbol (JIT-compiled code, runtime stubs) is kept by that address rather
/// than by its function: Callgrind names such code after the block a call entered, so a method reached through a
/// stub's jump (a precode, which every call of a not-yet-patched method goes through) is counted under the stub. By
/// address, the perf map names the method whose code ran. The cost after <c>calls=</c> is also kept, by caller and
/// callee (<see cref="CallInstructions"/>): the call graph that folds a framework call's cost into the method that made
/// it.
/// </remarks>
internal sealed class CallgrindProfile
{
    private CallgrindProfile(string path, string trigger, int? thread, IReadOnlyDictionary<string, long> totals, IReadOnlyDictionary<string, long> functions,
        IReadOnlyDictionary<string, long> functionSystemCalls, IReadOnlyDictionary<string, long> functionCycles, IReadOnlyDictionary<(string Caller, string Callee), long> calls)
    {
        CallInstructions = calls;
        ExclusiveEstimatedCycles = functionCycles;
        ExclusiveSystemCalls = functionSystemCalls;
        Path = path;
        Trigger = trigger;
        Thread = thread;
        Totals = totals;
        ExclusiveInstructions = functions;
    }

    /// <summary>The file read.</summary>
    public string Path { get; }

    /// <summary>What wrote this part (the <c>desc: Trigger:</c> line), e.g. <c>Client Request: perfbudgets:NAME:200:0</c>.</summary>
    public string Trigger { get; }

    /// <summary>The thread this part covers when threads were dumped separately (<c>--separate-threads=yes</c>), else null.</summary>
    public int? Thread { get; }

    /// <summary>Every event's total, by Callgrind's event name (<c>Ir</c>, <c>sysCount</c>, <c>sysTime</c>, …); a missing event is 0.</summary>
    public IReadOnlyDictionary<string, long> Totals { get; }

    /// <summary>Instructions executed in each function itself (not its callees), by the function's name in the file.</summary>
    public IReadOnlyDictionary<string, long> ExclusiveInstructions { get; }

    /// <summary>System calls made by each function itself (in practice the C library's wrappers: <c>write</c>, <c>recvfrom</c>, …).</summary>
    public IReadOnlyDictionary<string, long> ExclusiveSystemCalls { get; }

    /// <summary>
    /// Instructions executed in calls from one function to another, callees' callees included (the inclusive cost of
    /// the call), by caller and callee as the file names them. Empty for a profile kept by address, whose exclusive
    /// counts are by instruction and would not join the call graph's functions.
    /// </summary>
    public IReadOnlyDictionary<(string Caller, string Callee), long> CallInstructions { get; }

    /// <summary>
    /// Cycles each function itself is estimated to cost (<see cref="EstimatedCycles"/> of its own accesses and misses);
    /// empty without the cache simulation's events.
    /// </summary>
    public IReadOnlyDictionary<string, long> ExclusiveEstimatedCycles { get; }

    /// <summary>The events <see cref="EstimatedCycles"/> reads, in its parameters' order: Callgrind's with <c>--cache-sim=yes</c>.</summary>
    public static readonly string[] CacheEvents = ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"];

    /// <summary>
    /// The iai-callgrind / gungraun estimate of cycles from a simulated cache's counts: L1 hits + 5 × last-level hits +
    /// 35 × memory accesses. Linear in the counts, so a function's estimate is the sum of its lines' and the parts add up.
    /// </summary>
    public static long EstimatedCycles(long ir, long dr, long dw, long i1mr, long d1mr, long d1mw, long ilmr, long dlmr, long dlmw)
    {
        var accesses = ir + dr + dw;
        var ram = ilmr + dlmr + dlmw;
        var l1Misses = i1mr + d1mr + d1mw;
        var llHits = l1Misses - ram;
        return (accesses - l1Misses) + (5 * llHits) + (35 * ram);
    }

    /// <summary>Instructions executed (the <c>Ir</c> event).</summary>
    public long Instructions => Total("Ir");

    /// <summary>System calls made (<c>sysCount</c>, with <c>--collect-systime</c>).</summary>
    public long SystemCalls => Total("sysCount");

    /// <summary>An event's total, 0 when the part has none.</summary>
    public long Total(string eventName) => Totals.GetValueOrDefault(eventName);

    /// <summary>Reads one Callgrind output file.</summary>
    /// <exception cref="InstructionMeterException">The file is not a Callgrind profile this reader understands.</exception>
    public static CallgrindProfile Read(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var trigger = string.Empty;
        int? thread = null;
        string[] events = [];
        long[]? summary = null;
        var names = new Dictionary<string, string>(StringComparer.Ordinal);
        var functions = new Dictionary<string, long>(StringComparer.Ordinal);
        var functionSystemCalls = new Dictionary<string, long>(StringComparer.Ordinal);
        var functionCycles = new Dictionary<string, long>(StringComparer.Ordinal);
        var callCosts = new Dictionary<(string Caller, string Callee), long>();
        string? callee = null;
        int[]? cacheColumns = null;
        long[] costs = [];
        string? function = null;
        var irColumn = -1;
        var sysColumn = -1;
        var skipNextCost = false;
        var byAddress = false;
        foreach (var line in File.ReadLines(path))
        {
            if (line.Length == 0 || line[0] == '#')
            {
                continue;
            }

            if (char.IsDigit(line[0]) || line[0] is '+' or '-' or '*')
            {
                if (skipNextCost)
                {
                    skipNextCost = false;
                    if (function is not null && callee is not null && irColumn >= 0 && !byAddress)
                    {
                        ReadCosts(line, costs);
                        callCosts[(function, callee)] = callCosts.GetValueOrDefault((function, callee)) + costs[irColumn];
                    }
                }
                else if (function is not null && irColumn >= 0)
                {
                    // One pass over the line for every event it counts, into a buffer reused from line to line.
                    ReadCosts(line, costs);
                    var cost = costs[irColumn];
                    if (cost != 0)
                    {
                        var key = byAddress && function.StartsWith("0x", StringComparison.Ordinal) ? AddressName(line) ?? function : function;
                        functions[key] = functions.GetValueOrDefault(key) + cost;
                    }

                    var calls = sysColumn < 0 ? 0 : costs[sysColumn];
                    if (calls != 0)
                    {
                        functionSystemCalls[function] = functionSystemCalls.GetValueOrDefault(function) + calls;
                    }

                    if (cacheColumns is not null)
                    {
                        var c = cacheColumns;
                        var lineCycles = EstimatedCycles(costs[c[0]], costs[c[1]], costs[c[2]], costs[c[3]], costs[c[4]], costs[c[5]], costs[c[6]], costs[c[7]], costs[c[8]]);
                        if (lineCycles != 0)
                        {
                            functionCycles[function] = functionCycles.GetValueOrDefault(function) + lineCycles;
                        }
                    }
                }

                continue;
            }

            if (line.StartsWith("fn=", StringComparison.Ordinal))
            {
                function = Name(names, line.AsSpan(3));
            }
            else if (line.StartsWith("cfn=", StringComparison.Ordinal))
            {
                callee = Name(names, line.AsSpan(4));
            }
            else if (line.StartsWith("calls=", StringComparison.Ordinal))
            {
                skipNextCost = true;
            }
            else if (line.StartsWith("positions:", StringComparison.Ordinal))
            {
                byAddress = line[10..].Trim() == "instr";
            }
            else if (line.StartsWith("events:", StringComparison.Ordinal))
            {
                events = line[7..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                irColumn = Array.IndexOf(events, "Ir");
                sysColumn = Array.IndexOf(events, "sysCount");
                costs = new long[events.Length];
                var columns = CacheEvents.Select(e => Array.IndexOf(events, e)).ToArray();
                cacheColumns = columns.All(c => c >= 0) ? columns : null;
            }
            else if (line.StartsWith("summary:", StringComparison.Ordinal) || line.StartsWith("totals:", StringComparison.Ordinal))
            {
                summary = line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries)
                    .Select(v => unchecked((long)ulong.Parse(v, CultureInfo.InvariantCulture))).ToArray();
            }
            else if (line.StartsWith("desc: Trigger:", StringComparison.Ordinal))
            {
                trigger = line["desc: Trigger:".Length..].Trim();
            }
            else if (line.StartsWith("thread:", StringComparison.Ordinal))
            {
                thread = int.Parse(line.AsSpan(7).Trim(), CultureInfo.InvariantCulture);
            }
        }

        if (events.Length == 0 || summary is null)
        {
            throw new InstructionMeterException($"{path} is not a Callgrind profile: it has no 'events:' or no 'summary:' line.");
        }

        var totals = new Dictionary<string, long>(StringComparer.Ordinal);
        for (var i = 0; i < events.Length; i++)
        {
            totals[events[i]] = i < summary.Length ? summary[i] : 0;
        }

        return new CallgrindProfile(path, trigger, thread, totals, functions, functionSystemCalls, functionCycles, callCosts);
    }

    // The cost line is "position ev1 ev2 ...": the event at index k is field k + 1, and the events a line leaves off
    // at its end are 0. Fills `costs` (one slot per event) from one pass over the line.
    private static void ReadCosts(string line, long[] costs)
    {
        Array.Clear(costs);
        var span = line.AsSpan();
        var field = 0;
        var start = 0;
        for (var i = 0; i <= span.Length && field <= costs.Length; i++)
        {
            if (i == span.Length || span[i] == ' ')
            {
                if (i > start)
                {
                    if (field >= 1)
                    {
                        costs[field - 1] = unchecked((long)ulong.Parse(span[start..i], CultureInfo.InvariantCulture));
                    }

                    field++;
                }

                start = i + 1;
            }
        }
    }

    // The instruction address a cost line starts with, as Callgrind names code without a symbol ("0x" and 16 hex
    // digits); null when the position is not an absolute address (a compressed one, which the start never asks for).
    private static string? AddressName(string line)
    {
        var end = line.IndexOf(' ', StringComparison.Ordinal);
        var position = end < 0 ? line.AsSpan() : line.AsSpan(0, end);
        if (!position.StartsWith("0x", StringComparison.Ordinal)
            || !ulong.TryParse(position[2..], NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var address))
        {
            return null;
        }

        return string.Create(CultureInfo.InvariantCulture, $"0x{address:x16}");
    }

    // "(12) name" defines id 12, "(12)" refers to it, and a plain "name" is used as it is. A "'2" suffix (a recursion
    // level) is the same function.
    private static string Name(Dictionary<string, string> names, ReadOnlySpan<char> text)
    {
        text = text.Trim();
        string name;
        if (text.Length > 0 && text[0] == '(')
        {
            var close = text.IndexOf(')');
            var id = text[..(close + 1)].ToString();
            var rest = text[(close + 1)..].Trim();
            if (rest.Length == 0)
            {
                return names.TryGetValue(id, out var known) ? known : id;
            }

            name = Strip(rest);
            names[id] = name;
            return name;
        }

        name = Strip(text);
        return name;

        static string Strip(ReadOnlySpan<char> value)
        {
            var quote = value.LastIndexOf('\'');
            return (quote > 0 && int.TryParse(value[(quote + 1)..], out _) ? value[..quote] : value).ToString();
        }
    }
}
