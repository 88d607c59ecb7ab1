using System.Globalization;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting;

/// <summary>
/// Records the counted budgets again (<c>instructions-max</c>, <c>syscalls-max</c>): for each one measured in a run's
/// <c>results.json</c>, <c>recorded</c> becomes the measured count, the limit becomes recorded + margin, and
/// <c>recordedOn</c> the runtime and Valgrind versions; each budget's breakdown by method goes to
/// <see cref="BudgetGate.RecordedMethodsFileName"/>. Every other field, and every other budget, is left as it was.
/// </summary>
/// <remarks>
/// The margin is not touched: it is the budget's own decision, justified by the measured spread. A change of counts is a
/// routine re-recording; the commit that carries it shows the lines <see cref="Record"/> returns, old → new.
/// </remarks>
public static class CountedBudgetRecorder
{
    /// <summary>
    /// Rewrites <paramref name="budgetsPath"/> from the counted results in <paramref name="resultsPath"/> and returns
    /// one line per budget: <c>NAME: recorded 9,324 → 9,412 (+0.94%), limit 9,417.24 → 9,506.12</c>.
    /// </summary>
    /// <param name="budgetsPath">The <c>budgets.json</c> to rewrite.</param>
    /// <param name="resultsPath">The run's <c>results.json</c>.</param>
    /// <param name="runtimeVersion">The runtime the run used.</param>
    /// <param name="valgrindVersion">The Valgrind the run used.</param>
    /// <exception cref="BudgetFileException">The results hold no counted budget of the file, or one failed to measure.</exception>
    public static IReadOnlyList<string> Record(string budgetsPath, string resultsPath, string runtimeVersion, string valgrindVersion)
    {
        ArgumentException.ThrowIfNullOrEmpty(budgetsPath);
        ArgumentException.ThrowIfNullOrEmpty(resultsPath);
        var results = ResultStore.ReadAll(resultsPath).ToDictionary(r => r.Budget, StringComparer.Ordinal);
        var root = JsonNode.Parse(File.ReadAllText(budgetsPath), documentOptions: new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip })!.AsObject();
        var lines = new List<string>();
        var breakdowns = RecordedMethodsFile.Read(MethodsPath(budgetsPath));
        foreach (var budget in root["budgets"]!.AsArray().Select(b => b!.AsObject()))
        {
            var name = budget["name"]!.GetValue<string>();
            if (!BudgetKind.IsCounted(budget["kind"]!.GetValue<string>()))
            {
                continue;
            }

            if (!results.TryGetValue(name, out var result))
            {
                lines.Add($"{name}: not in {Path.GetFileName(resultsPath)}, left as it was");
                continue;
            }

            if (double.IsNaN(result.Measured))
            {
                throw new BudgetFileException($"{name} was not measured in {resultsPath} ({result.Detail}): nothing to record.");
            }

            var margin = budget["margin"]?.GetValue<double>() ?? 0.01;
            var oldRecorded = budget["recorded"]?.GetValue<double>() ?? double.NaN;
            var oldLimit = budget["limit"]?.GetValue<double>() ?? double.NaN;
            var recorded = Math.Round(result.Measured, 2);
            var limit = BudgetBook.CountedLimit(recorded, margin);
            budget["recorded"] = recorded;
            budget["limit"] = limit;
            budget["margin"] = margin;
            budget["recordedOn"] = new JsonObject { ["runtime"] = runtimeVersion, ["valgrind"] = valgrindVersion };
            Reorder(budget);
            if (result.Attribution is { Entries.Count: > 0 } attribution)
            {
                breakdowns[name] = attribution.Entries;
            }

            var change = double.IsNaN(oldRecorded) || oldRecorded == 0 ? "new" : Percent(recorded / oldRecorded - 1);
            lines.Add(string.Create(CultureInfo.InvariantCulture,
                $"{name}: recorded {Figures.Format(oldRecorded)} → {Figures.Format(recorded)} ({change}), limit {Figures.Format(oldLimit)} → {Figures.Format(limit)}"));
        }

        var options = new JsonSerializerOptions { WriteIndented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };
        File.WriteAllText(budgetsPath, root.ToJsonString(options) + "\n");
        RecordedMethodsFile.Write(MethodsPath(budgetsPath), breakdowns);
        return lines;
    }

    private static string MethodsPath(string budgetsPath) =>
        Path.Combine(Path.GetDirectoryName(Path.GetFullPath(budgetsPath))!, BudgetGate.RecordedMethodsFileName);

    private static string Percent(double change) => string.Create(CultureInfo.InvariantCulture, $"{(change >= 0 ? "+" : "")}{change:0.00%}");

    // Keeps the fields in the file's order: name, kind, limit, unit, recorded, margin, recordedOn, then the rest.
    private static void Reorder(JsonObject budget)
    {
        string[] order = ["name", "kind", "limit", "unit", "recorded", "margin", "recordedOn"];
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
