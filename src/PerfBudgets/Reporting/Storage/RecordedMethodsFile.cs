using System.Text.Json;
using System.Text.Json.Nodes;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting.Storage;

/// <summary>
/// <c>budgets.methods.json</c>: each counted budget's breakdown by method (or by system-call site) as it was recorded,
/// <c>{ "budgets": { "NAME": { "unit": "instructions/op", "methods": { "Type::Method": 123.45, … } } } }</c>.
/// Written by the recorder with the counts in <c>budgets.json</c>; a failing counted budget names what grew since.
/// </summary>
public static class RecordedMethodsFile
{
    /// <summary>
    /// The file's name, beside <c>budgets.json</c>: each counted budget's breakdown by method as recorded
    /// (<c>perfbudgets record</c>), which a failure is compared with.
    /// </summary>
    public const string FileName = "budgets.methods.json";

    /// <summary>Reads the file; an empty set when it does not exist.</summary>
    /// <exception cref="BudgetFileException">The file is not in the expected shape.</exception>
    public static Dictionary<string, IReadOnlyList<AttributionEntry>> Read(string path)
    {
        var result = new Dictionary<string, IReadOnlyList<AttributionEntry>>(StringComparer.Ordinal);
        if (!File.Exists(path))
        {
            return result;
        }

        try
        {
            var root = JsonNode.Parse(File.ReadAllText(path))?["budgets"]?.AsObject()
                ?? throw new BudgetFileException($"{path}: expected an object with 'budgets'.");
            foreach (var (name, node) in root)
            {
                var unit = node?["unit"]?.GetValue<string>() ?? throw new BudgetFileException($"{path}: budget '{name}' has no 'unit'.");
                var methods = node["methods"]?.AsObject() ?? throw new BudgetFileException($"{path}: budget '{name}' has no 'methods'.");
                result[name] = methods.Select(m => new AttributionEntry(m.Key, m.Value!.GetValue<double>(), unit, null)).ToList();
            }
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or FormatException)
        {
            throw new BudgetFileException($"{path} is not a recorded-methods file: {e.Message}", e);
        }

        return result;
    }

    /// <summary>Writes the breakdowns, budgets in name order, each one's entries largest first.</summary>
    public static void Write(string path, IReadOnlyDictionary<string, IReadOnlyList<AttributionEntry>> breakdowns)
    {
        ArgumentNullException.ThrowIfNull(breakdowns);
        var budgets = new JsonObject();
        foreach (var (name, entries) in breakdowns.OrderBy(b => b.Key, StringComparer.Ordinal))
        {
            var methods = new JsonObject();
            foreach (var entry in entries.OrderByDescending(e => e.Value))
            {
                methods[entry.Name] = entry.Value;
            }

            budgets[name] = new JsonObject { ["unit"] = entries.FirstOrDefault()?.Unit ?? string.Empty, ["methods"] = methods };
        }

        var root = new JsonObject
        {
            ["description"] = "Each counted budget's breakdown by method (instructions/op) or by system-call site (syscalls/op), as recorded with budgets.json by perfbudgets record. Not edited by hand.",
            ["budgets"] = budgets,
        };
        File.WriteAllText(path, root.ToJsonString(new JsonSerializerOptions { WriteIndented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping }) + "\n");
    }
}
