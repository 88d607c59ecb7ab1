using PerfBudgets.Measuring;

namespace PerfBudgets.Diagnosing;

/// <summary>
/// The program's own methods with what they called folded in: each instruction of the framework, the runtime's stubs
/// or native code is credited to the nearest of the program's methods above it in the call graph, so a regression
/// that comes through a framework call (a <c>ToList()</c> in a loop, a <c>string.Format</c> per item) is named by the
/// method that made the call, not by <c>Enumerable.ToList</c> or a dispatch stub.
/// </summary>
/// <remarks>
/// <para>
/// The program's own code is every JIT-compiled method of a module that is neither the platform's (<c>System.*</c>,
/// <c>Microsoft.*</c>, <c>mscorlib</c>, <c>netstandard</c>) nor this package's (<c>PerfBudgets*</c>): the modules an
/// adopter builds and the libraries they chose, which is where a change is made. Stubs, native code and precompiled
/// framework code have no module in the perf map and are never the program's own (nor is an assembly of the program's
/// published ReadyToRun: with tiering off its precompiled code runs as it is, unnamed). The rule needs no setting and holds
/// for a workload host, which is the adopter's own program as well; its top-level loop folds in only what it calls
/// itself, since the program's methods below it are credited with their own share.
/// </para>
/// <para>
/// Callgrind gives the call graph one edge at a time (the inclusive cost of every call from a caller to a callee), not
/// whole stacks. Where framework code calls back into the program's code (a delegate passed to LINQ), the program's
/// share of that framework method is taken as the same for every caller of it: exact when each framework method is
/// reached from one place, a proportional split otherwise. A recursion through framework code is followed until what
/// remains to credit is below a hundredth of an instruction.
/// </para>
/// </remarks>
internal sealed class InclusiveAttribution
{
    private static readonly string[] PlatformModulePrefixes = ["System.", "Microsoft.", "PerfBudgets."];
    private static readonly HashSet<string> PlatformModules = new(StringComparer.Ordinal) { "System", "mscorlib", "netstandard", "PerfBudgets" };

    // What is left to credit below which the walk stops, in instructions per operation, and a bound on the walk for a
    // cycle of calls that runs nothing of its own.
    private const double Negligible = 0.01;
    private const int MostSteps = 100_000;

    private readonly Dictionary<string, Dictionary<string, double>> _creditedTo;

    private InclusiveAttribution(IReadOnlyList<OwnMethodCost> own, Dictionary<string, Dictionary<string, double>> creditedTo, IReadOnlyDictionary<string, double> exclusive)
    {
        OwnMethods = own;
        _creditedTo = creditedTo;
        Exclusive = exclusive;
    }

    /// <summary>The program's methods, each with its own instructions and those of what it called, largest first.</summary>
    public IReadOnlyList<OwnMethodCost> OwnMethods { get; }

    /// <summary>Each name's exclusive instructions per operation (the names of the measurement's breakdown).</summary>
    public IReadOnlyDictionary<string, double> Exclusive { get; }

    /// <summary>
    /// Whether a method of <paramref name="module"/> (an assembly's simple name) is the program's own code: neither the
    /// platform's nor this package's.
    /// </summary>
    public static bool IsOwnModule(string module)
    {
        ArgumentNullException.ThrowIfNull(module);
        return module.Length > 0 && !PlatformModules.Contains(module) && !PlatformModulePrefixes.Any(p => module.StartsWith(p, StringComparison.Ordinal));
    }

    /// <summary>
    /// The fold of <paramref name="measurement"/>'s instructions, or null when it has no call graph or none of the
    /// program's own methods ran.
    /// </summary>
    public static InclusiveAttribution? Of(InstructionMeasurement measurement)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        return measurement.CallGraph is { Own.Count: > 0 } graph ? Fold(graph) : null;
    }

    /// <summary>
    /// Folds a call graph: each of the program's functions is credited with its own count and with the part of each
    /// foreign callee's count that its calls led to; the credits are then summed by the names the functions resolve to.
    /// </summary>
    public static InclusiveAttribution Fold(CallGraph graph)
    {
        ArgumentNullException.ThrowIfNull(graph);
        var callees = graph.Calls.Where(c => c.Caller != c.Callee && c.PerOperation > 0)
            .GroupBy(c => c.Caller, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.GroupBy(c => c.Callee, StringComparer.Ordinal).Select(c => (Callee: c.Key, Cost: c.Sum(x => x.PerOperation))).ToList(), StringComparer.Ordinal);
        var walk = new Graph(graph.Exclusive, callees, graph.Own);
        string NameOf(string function) => graph.Names.GetValueOrDefault(function) ?? function;

        var creditedTo = new Dictionary<string, Dictionary<string, double>>(StringComparer.Ordinal);
        foreach (var function in graph.Own)
        {
            var method = NameOf(function);
            if (!creditedTo.TryGetValue(method, out var credited))
            {
                credited = new Dictionary<string, double>(StringComparer.Ordinal);
                creditedTo[method] = credited;
            }

            foreach (var (name, amount) in walk.Credit(function))
            {
                var resolved = NameOf(name);
                credited[resolved] = credited.GetValueOrDefault(resolved) + amount;
            }
        }

        var exclusive = graph.Exclusive.GroupBy(e => NameOf(e.Key), StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Sum(e => e.Value), StringComparer.Ordinal);
        var own = creditedTo
            .Select(c => new OwnMethodCost(c.Key, c.Value.GetValueOrDefault(c.Key), c.Value.Values.Sum()))
            .Where(c => c.Inclusive > 0)
            .OrderByDescending(c => c.Inclusive)
            .ThenBy(c => c.Method, StringComparer.Ordinal)
            .ToList();
        return new InclusiveAttribution(own, creditedTo, exclusive);
    }

    /// <summary>Whether <paramref name="name"/> is one of the program's own methods.</summary>
    public bool IsOwn(string name) => _creditedTo.ContainsKey(name);

    /// <summary>
    /// The share of <paramref name="name"/>'s exclusive instructions credited to the program's method
    /// <paramref name="ownMethod"/>: 1 for the method itself, 0 to 1 for what it called.
    /// </summary>
    public double ShareOf(string ownMethod, string name)
    {
        if (ownMethod == name)
        {
            return 1;
        }

        var total = Exclusive.GetValueOrDefault(name);
        return total > 0 && _creditedTo.TryGetValue(ownMethod, out var credited) ? Math.Min(1, credited.GetValueOrDefault(name) / total) : 0;
    }

    /// <summary>
    /// What each of the program's methods grew by, its calls folded in, given each name's growth in exclusive
    /// instructions per operation: a framework method's growth is credited to the program's methods in the shares its
    /// cost has now. Largest growth first.
    /// </summary>
    public IReadOnlyList<(string Method, double Growth)> Grown(IReadOnlyDictionary<string, double> exclusiveGrowth)
    {
        ArgumentNullException.ThrowIfNull(exclusiveGrowth);
        return OwnMethods
            .Select(m => (m.Method, Growth: exclusiveGrowth.Sum(g => g.Value * ShareOf(m.Method, g.Key))))
            .OrderByDescending(m => m.Growth)
            .ThenBy(m => m.Method, StringComparer.Ordinal)
            .ToList();
    }

    // The call graph at Callgrind's grain, with the share of each name's inclusive cost that is the program's own code.
    private sealed class Graph(IReadOnlyDictionary<string, double> self, Dictionary<string, List<(string Callee, double Cost)>> callees, IReadOnlySet<string> own)
    {
        private readonly Dictionary<string, double> _ownShare = new(StringComparer.Ordinal);

        private double Inclusive(string name) => self.GetValueOrDefault(name) + (callees.TryGetValue(name, out var list) ? list.Sum(c => c.Cost) : 0);

        // The part of a call to `name` that is not the program's own code: what the calling method is credited with.
        private double Foreign(string name, double cost) => own.Contains(name) ? 0 : cost * (1 - OwnShare(name, []));

        // The share of a foreign name's inclusive cost spent in the program's code it calls back (a LINQ delegate).
        private double OwnShare(string name, HashSet<string> visiting)
        {
            if (_ownShare.TryGetValue(name, out var known))
            {
                return known;
            }

            var inclusive = Inclusive(name);
            if (inclusive <= 0 || !callees.TryGetValue(name, out var list) || !visiting.Add(name))
            {
                return 0; // a recursion being worked out counts as foreign, which its callers' figures already are
            }

            var ownCost = list.Sum(c => own.Contains(c.Callee) ? c.Cost : c.Cost * OwnShare(c.Callee, visiting));
            visiting.Remove(name);
            var share = Math.Clamp(ownCost / inclusive, 0, 1);
            _ownShare[name] = share;
            return share;
        }

        // What `method` is credited with, by name: its own count, and the exclusive counts of the foreign code it
        // called, in proportion to how that code's inclusive cost splits between its own count and its callees.
        public Dictionary<string, double> Credit(string method)
        {
            var credited = new Dictionary<string, double>(StringComparer.Ordinal) { [method] = self.GetValueOrDefault(method) };
            var pending = new Dictionary<string, double>(StringComparer.Ordinal);
            var queue = new Queue<string>();
            void Pass(string name, double amount)
            {
                if (amount < Negligible)
                {
                    return;
                }

                if (!pending.TryGetValue(name, out var waiting))
                {
                    queue.Enqueue(name);
                }

                pending[name] = waiting + amount;
            }

            foreach (var (callee, cost) in callees.GetValueOrDefault(method) ?? [])
            {
                Pass(callee, Foreign(callee, cost));
            }

            for (var steps = 0; steps < MostSteps && queue.TryDequeue(out var name); steps++)
            {
                pending.Remove(name, out var amount);
                var list = callees.GetValueOrDefault(name) ?? [];
                var foreignCallees = list.Select(c => (c.Callee, Cost: Foreign(c.Callee, c.Cost))).ToList();
                var whole = self.GetValueOrDefault(name) + foreignCallees.Sum(c => c.Cost);
                if (whole <= 0)
                {
                    continue;
                }

                credited[name] = credited.GetValueOrDefault(name) + (amount * self.GetValueOrDefault(name) / whole);
                foreach (var (callee, cost) in foreignCallees)
                {
                    Pass(callee, amount * cost / whole);
                }
            }

            return credited;
        }
    }
}
