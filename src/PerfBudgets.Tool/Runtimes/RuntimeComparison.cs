using System.Globalization;
using System.Text;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tool.Recording;

namespace PerfBudgets.Tool.Runtimes;

/// <summary>
/// The same budgets measured on several runtimes (one <c>results.json</c> per target framework), as one markdown table
/// per scenario: each budget's figure on each runtime, its ratio to the newest, and for the counted budgets the
/// methods whose counts moved most between each pair of neighbouring runtimes.
/// </summary>
/// <remarks>
/// Only figures that do not depend on the machine's speed are compared: counts, bytes, collections, exponents. A timed
/// figure (a kind that reads the wall clock) would compare two runs of the machine, not two runtimes, and is left out.
/// A scenario is a budget name's first two parts (<c>Sockets.SaeaLoop</c>).
/// </remarks>
internal sealed class RuntimeComparison
{
    private readonly IReadOnlyList<(string Framework, IReadOnlyDictionary<string, BudgetResult> Results)> _runs;

    private RuntimeComparison(IReadOnlyList<(string Framework, IReadOnlyDictionary<string, BudgetResult> Results)> runs) => _runs = runs;

    /// <summary>The target frameworks compared, oldest first; the last is the one ratios are taken to.</summary>
    public IReadOnlyList<string> Frameworks => [.. _runs.Select(r => r.Framework)];

    /// <summary>
    /// Reads <c>DIRECTORY/FRAMEWORK/results.json</c> for each framework (a runtime run of <see cref="RuntimesRun"/>),
    /// ordered oldest first by version.
    /// </summary>
    /// <exception cref="ToolInputException">A framework's results are missing.</exception>
    public static RuntimeComparison Load(string directory, IEnumerable<string> frameworks)
    {
        var runs = new List<(string, IReadOnlyDictionary<string, BudgetResult>)>();
        foreach (var framework in frameworks.OrderBy(FrameworkVersion))
        {
            var path = Path.Combine(directory, framework, "results.json");
            if (!File.Exists(path))
            {
                throw new ToolInputException($"No results for {framework}: {Path.GetFullPath(path)} does not exist (run perfbudgets runtimes without --no-run first).");
            }

            runs.Add((framework, ResultStore.ReadAll(path).GroupBy(r => r.Budget, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Last(), StringComparer.Ordinal)));
        }

        return From(runs);
    }

    /// <summary>A comparison of runs already read, oldest first.</summary>
    public static RuntimeComparison From(IReadOnlyList<(string Framework, IReadOnlyDictionary<string, BudgetResult> Results)> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        if (runs.Count < 2)
        {
            throw new ToolInputException($"A comparison needs two runtimes or more; got {runs.Count}.");
        }

        return new RuntimeComparison(runs);
    }

    /// <summary>The version a target framework names (<c>net8.0</c> → 8.0), for ordering; 0 when it names none.</summary>
    internal static Version FrameworkVersion(string framework) =>
        Version.TryParse(framework.StartsWith("net", StringComparison.OrdinalIgnoreCase) ? framework[3..] : framework, out var version) ? version : new Version(0, 0);

    /// <summary>The figure of a budget on one runtime, or null when that run did not measure it.</summary>
    public double? Figure(string budget, string framework) =>
        _runs.First(r => r.Framework == framework).Results.GetValueOrDefault(budget) is { Measured: var measured } && !double.IsNaN(measured) ? measured : null;

    /// <summary>
    /// The markdown: one section per scenario with its table and, below it, the methods that moved most. With
    /// <paramref name="only"/>, the budgets whose names start with one of its prefixes alone.
    /// </summary>
    public string Render(IReadOnlyCollection<string>? only = null, int methodsPerPair = 3)
    {
        var newest = _runs[^1].Framework;
        var budgets = _runs.SelectMany(r => r.Results.Values)
            .Where(r => IsComparable(r) && (only is null || only.Count == 0 || only.Any(p => r.Budget.StartsWith(p, StringComparison.Ordinal))))
            .GroupBy(r => r.Budget, StringComparer.Ordinal)
            .Select(g => g.First())
            .OrderBy(r => r.Budget, StringComparer.Ordinal)
            .ToList();
        var text = new StringBuilder();
        // The runtime each suite really ran on, as its results recorded it: a run on the machine's runtime shows here.
        text.AppendLine($"Runtimes: {string.Join("; ", _runs.Select(r => $"{r.Framework} on {r.Results.Values.Select(v => v.Machine.Runtime).FirstOrDefault() ?? "(no results)"}"))}. " +
            $"Ratios are to {newest}: 1.100x is 10% more on the older runtime.");
        text.AppendLine();
        foreach (var scenario in budgets.GroupBy(r => Scenario(r.Budget), StringComparer.Ordinal))
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"### {scenario.Key}");
            text.AppendLine();
            var older = _runs.Take(_runs.Count - 1).Select(r => r.Framework).ToList();
            text.AppendLine($"| budget | unit | {string.Join(" | ", _runs.Select(r => r.Framework))} | {string.Join(" | ", older.Select(f => $"{Short(f)} ÷ {Short(newest)}"))} |");
            text.AppendLine($"|---|---|{string.Concat(Enumerable.Repeat("---:|", _runs.Count + older.Count))}");
            var moved = new List<string>();
            foreach (var budget in scenario)
            {
                var figures = _runs.Select(r => Figure(budget.Budget, r.Framework)).ToList();
                var last = figures[^1];
                var ratios = figures.Take(figures.Count - 1).Select(f => Ratio(f, last));
                text.AppendLine($"| `{budget.Budget}` | {budget.Unit} | {string.Join(" | ", figures.Select(f => f is { } v ? Figures.Format(v) : "—"))} | {string.Join(" | ", ratios)} |");
                for (var i = 1; i < _runs.Count; i++)
                {
                    if (MovedMost(budget.Budget, _runs[i - 1], _runs[i], methodsPerPair) is { } line)
                    {
                        moved.Add($"- `{budget.Budget}`, {Short(_runs[i - 1].Framework)} → {Short(_runs[i].Framework)}: {line}");
                    }
                }
            }

            text.AppendLine();
            if (moved.Count > 0)
            {
                text.AppendLine("Moved most (exclusive count per operation, old → new):");
                text.AppendLine();
                foreach (var line in moved)
                {
                    text.AppendLine(line);
                }

                text.AppendLine();
            }
        }

        return text.ToString();
    }

    // A measured figure that compares across runtimes: not a wall-clock kind, not a load run's error count.
    private static bool IsComparable(BudgetResult result) =>
        !double.IsNaN(result.Measured) && (!BudgetKind.TryParse(result.Kind, out var kind) || !kind.IsWallClock) && result.Kind != BudgetKind.ErrorsMax.Name;

    internal static string Scenario(string budget)
    {
        var parts = budget.Split('.');
        return parts.Length <= 2 ? parts[0] : $"{parts[0]}.{parts[1]}";
    }

    /// <summary>What the runtime's own stubs and its precompiled code are summed under, across runtimes.</summary>
    internal const string RuntimeCode = "(runtime stubs and precompiled framework code)";

    // A method's name as it compares across runtimes. The runtime's stubs are named by each runtime its own way (.NET 8
    // and 9 number them, "stub<675> AllocateTemporaryEntryPoints<PRECODE_STUB>"; .NET 10 names the block,
    // "stub ReportStubBlock<MethodCallThunk>"), and precompiled framework code has no name in the perf map at all: one
    // line each would read as a method that vanished and another that appeared. Summed, they are one figure that
    // compares, and the named methods (the code's own and the JIT-compiled framework's) stand out.
    internal static string MethodKey(string name) =>
        name.StartsWith("stub", StringComparison.Ordinal) || name.StartsWith('[') ? RuntimeCode : name;

    // A code span that holds a generic type's backtick (FeatureReferences`1) too.
    private static string Code(string text) => text.Contains('`', StringComparison.Ordinal) ? $"`` {text} ``" : $"`{text}`";

    private static string Short(string framework) => framework.StartsWith("net", StringComparison.OrdinalIgnoreCase) ? framework[3..].TrimEnd('0').TrimEnd('.') : framework;

    // A figure as a multiple of the newest runtime's: 1.1x is 10% more on the older runtime. A negative figure (a
    // difference of two) has no ratio that reads.
    internal static string Ratio(double? figure, double? newest) => (figure, newest) switch
    {
        (null, _) or (_, null) => "—",
        (0, 0) => "=",
        (_, 0) => "(0 on newest)",
        ({ } f, { } n) when f < 0 || n < 0 => "—",
        ({ } f, { } n) => string.Create(CultureInfo.InvariantCulture, $"{f / n:0.000}x"),
    };

    // The methods (or system-call sites) whose exclusive counts per operation moved most between two runs' breakdowns.
    private static string? MovedMost(string budget, (string Framework, IReadOnlyDictionary<string, BudgetResult> Results) before,
        (string Framework, IReadOnlyDictionary<string, BudgetResult> Results) after, int count)
    {
        if (before.Results.GetValueOrDefault(budget)?.Attribution is not { Entries.Count: > 0 } old
            || after.Results.GetValueOrDefault(budget)?.Attribution is not { Entries.Count: > 0 } now)
        {
            return null;
        }

        var moves = MethodMoves.Largest(old.Entries, now.Entries, count, MethodKey, method => method == RuntimeCode ? method : Code(method), minus: "−");
        return moves.Count == 0 ? null : string.Join("; ", moves);
    }
}
