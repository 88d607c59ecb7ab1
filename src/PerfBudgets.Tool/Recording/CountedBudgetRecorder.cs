using System.Globalization;
using System.Text.Json.Nodes;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Reporting;
using PerfBudgets.Statistics;

namespace PerfBudgets.Tool.Recording;

/// <summary>
/// Records the counted budgets again (<c>instructions-max</c>, <c>syscalls-max</c>): for each one measured in a run's
/// <c>results.json</c>, <c>recorded</c> becomes the measured count, the limit becomes ceil(recorded x (1 + margin)) (a growth exponent: recorded + margin), and
/// <c>recordedOn</c> the runtime and Valgrind versions; each budget's breakdown by method goes to
/// <see cref="RecordedMethodsFile.FileName"/>. Every other field, and every other budget, is left as it was.
/// </summary>
/// <remarks>
/// Given several runs, each budget is recorded at the median of their counts (its breakdown from the run nearest that
/// median): the in-process counts repeat exactly, while a server's move by a percent or two between runs, and one run
/// could be recorded at either end. The margin is not touched: it is the budget's own decision, justified by the measured spread. A change of counts is a
/// routine re-recording; the commit that carries it shows the lines <see cref="Record"/> returns, old → new.
/// </remarks>
internal static class CountedBudgetRecorder
{
    /// <summary>
    /// Rewrites <paramref name="budgetsPath"/> from the counted results in <paramref name="resultsPaths"/> and returns
    /// one line per budget: <c>NAME: recorded 9,324 → 9,412 (+0.94%), limit 9,417.24 → 9,506.12</c>.
    /// </summary>
    /// <param name="budgetsPath">The <c>budgets.json</c> to rewrite.</param>
    /// <param name="resultsPaths">The <c>results.json</c> of one run or more.</param>
    /// <param name="runtimeVersion">The runtime the run used.</param>
    /// <param name="valgrindVersion">The Valgrind the run used.</param>
    /// <exception cref="BudgetFileException">The results hold no counted budget of the file, or one failed to measure.</exception>
    /// <param name="targetFramework">
    /// Null to record the budgets' own fields; a target framework (<c>net8.0</c>) to record into each budget's
    /// <c>runtimes</c> entry for it instead (its <c>recorded</c>, <c>limit</c> and <c>recordedOn</c>, the margin the
    /// budget's own unless the entry has one) and its breakdown under <c>NAME (FRAMEWORK)</c>, leaving the budget's own
    /// recording and breakdown as they were.
    /// </param>
    public static IReadOnlyList<string> Record(string budgetsPath, IReadOnlyList<string> resultsPaths, string runtimeVersion, string valgrindVersion, string? targetFramework = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(budgetsPath);
        ArgumentNullException.ThrowIfNull(resultsPaths);
        if (resultsPaths.Count == 0)
        {
            throw new ArgumentException("At least one results.json is needed.", nameof(resultsPaths));
        }

        var runs = resultsPaths.Select(path => ResultStore.ReadAll(path).ToDictionary(r => r.Budget, StringComparer.Ordinal)).ToList();
        var resultsName = resultsPaths.Count == 1 ? Path.GetFileName(resultsPaths[0]) : $"any of the {resultsPaths.Count} runs";
        var file = BudgetsFile.Read(budgetsPath);
        var lines = new List<string>();
        var breakdowns = RecordedMethodsFile.Read(MethodsPath(budgetsPath));
        var ownCode = RecordedMethodsFile.ReadOwnCode(MethodsPath(budgetsPath));
        foreach (var budget in file.Budgets)
        {
            var name = budget["name"]!.GetValue<string>();
            if (!BudgetKind.TryParse(budget["kind"]!.GetValue<string>(), out var kind) || !kind.IsCounted)
            {
                if (kind == BudgetKind.AllocatedBytesPerOp && AllocationProfile(runs, name) is { } profile)
                {
                    breakdowns[name] = profile.Entries;
                    ownCode[name] = profile.OwnCode;
                    lines.Add($"{name}: allocation profile recorded, {profile.Entries.Count} types and {profile.OwnCode.Count} of the program's methods");
                }

                continue;
            }

            var measured = runs.Select(run => run.GetValueOrDefault(name)).OfType<BudgetResult>().ToList();
            if (measured.Count == 0)
            {
                lines.Add($"{name}: not in {resultsName}, left as it was");
                continue;
            }

            if (measured.FirstOrDefault(r => double.IsNaN(r.Measured)) is { } unmeasured)
            {
                throw new BudgetFileException($"{name} was not measured in one of the runs ({unmeasured.Detail}): nothing to record.");
            }

            var median = Quantiles.Median(measured.Select(r => r.Measured));
            var result = measured.MinBy(r => Math.Abs(r.Measured - median))!;

            var target = targetFramework is null ? budget : RuntimeEntry(budget, targetFramework);
            var margin = target["margin"]?.GetValue<double>() ?? budget["margin"]?.GetValue<double>() ?? 0.01;
            var oldRecorded = target["recorded"]?.GetValue<double>() ?? double.NaN;
            var oldLimit = target["limit"]?.GetValue<double>() ?? double.NaN;
            var marginAbsolute = target["marginAbsolute"]?.GetValue<double>() ?? budget["marginAbsolute"]?.GetValue<double>() ?? 0;
            var (recorded, _) = CountedLimits.Recording(kind, measured.Select(r => r.Measured).ToList(), margin);
            var limit = CountedLimits.Limit(kind, recorded, margin, marginAbsolute);
            target["limit"] = limit;
            target["recorded"] = recorded;
            if (targetFramework is null)
            {
                budget["margin"] = margin;
            }

            target["recordedOn"] = new JsonObject { ["runtime"] = runtimeVersion, ["valgrind"] = valgrindVersion };
            Reorder(budget);
            // A runtime's entry keeps its breakdown under NAME (FRAMEWORK), beside the budget's own (Budget.RecordedMethodsKey).
            name = targetFramework is null ? name : $"{name} ({targetFramework})";
            var moved = breakdowns.GetValueOrDefault(name) is { } oldBreakdown && result.Attribution is { Entries.Count: > 0 } newBreakdown
                ? MovedMost(oldBreakdown, newBreakdown.Entries)
                : null;
            if (result.Attribution is { Entries.Count: > 0 } attribution)
            {
                breakdowns[name] = attribution.Entries;
                ownCode[name] = attribution.OwnCode;
            }

            var change = double.IsNaN(oldRecorded) || oldRecorded == 0 ? "new" : Figures.Percent((recorded / oldRecorded - 1) * 100, signed: true, decimals: 2);
            var spread = measured.Count == 1 ? string.Empty
                : string.Create(CultureInfo.InvariantCulture, $"; median of {measured.Count} runs, {Figures.Format(measured.Min(r => r.Measured))} to {Figures.Format(measured.Max(r => r.Measured))}");
            lines.Add(double.IsNaN(oldRecorded)
                ? $"{name}: recorded {Figures.Format(recorded)} (new), limit {Figures.Format(limit)}{spread}"
                : string.Create(CultureInfo.InvariantCulture,
                    $"{name}: recorded {Figures.Format(oldRecorded)} → {Figures.Format(recorded)} ({change}), limit {Figures.Format(oldLimit)} → {Figures.Format(limit)}{spread}"));
            if (moved is not null)
            {
                lines.Add($"  moved most: {moved}");
            }
        }

        file.Write(budgetsPath);
        RecordedMethodsFile.Write(MethodsPath(budgetsPath), breakdowns, ownCode);
        return lines;
    }

    // An allocation budget's profile (types in B/op, the program's methods), from the first run that diagnosed it
    // (PERF_DIAGNOSE=always diagnoses passing budgets too): what its failures are compared with. A profile that sampled
    // nothing is one (an operation that allocates nothing); a diagnosis that could not run (no note) is not.
    private static Attribution? AllocationProfile(IReadOnlyList<Dictionary<string, BudgetResult>> runs, string name) =>
        runs.Select(run => run.GetValueOrDefault(name)?.Attribution)
            .FirstOrDefault(a => a is { Note: not null } && a.Entries.All(e => e.Unit == "B/op"));

    // Where the counts moved between two breakdowns (a runtime upgrade, say); null when nothing moved by a whole unit.
    private static string? MovedMost(IReadOnlyList<AttributionEntry> before, IReadOnlyList<AttributionEntry> after, int count = 3)
    {
        var moves = MethodMoves.Largest(before, after, count, name => name, name => name, minus: "-");
        return moves.Count == 0 ? null : string.Join(", ", moves);
    }

    // The budget's "runtimes" entry for a target framework, made when there is none.
    private static JsonObject RuntimeEntry(JsonObject budget, string targetFramework)
    {
        if (budget["runtimes"] is not JsonObject runtimes)
        {
            runtimes = [];
            budget["runtimes"] = runtimes;
        }

        if (runtimes[targetFramework] is not JsonObject entry)
        {
            entry = [];
            runtimes[targetFramework] = entry;
        }

        return entry;
    }

    private static string MethodsPath(string budgetsPath) =>
        Path.Combine(Path.GetDirectoryName(Path.GetFullPath(budgetsPath))!, RecordedMethodsFile.FileName);

    // Keeps the fields in the file's order: name, kind, limit, unit, recorded, margin, recordedOn, then the rest.
    internal static void Reorder(JsonObject budget)
    {
        string[] order = ["name", "kind", "limit", "unit", "recorded", "margin", "marginAbsolute", "recordedOn"];
        var fields = budget.ToList();
        budget.Clear();
        foreach (var key in order)
        {
            if (fields.FirstOrDefault(f => f.Key == key) is { Key: not null } field)
            {
                budget[key] = field.Value;
            }
        }

        foreach (var (key, value) in fields.Where(f => !order.Contains(f.Key)))
        {
            budget[key] = value;
        }
    }
}
