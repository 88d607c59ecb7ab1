using System.Text.Json;
using System.Text.Json.Nodes;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting.Storage;

/// <summary>
/// <c>budgets.methods.json</c>: each counted budget's breakdown by method (or by system-call site) as it was recorded,
/// <c>{ "budgets": { "NAME": { "unit": "instructions/op", "methods": { "Type::Method": 123.45, … } } } }</c>.
/// Written by the recorder with the counts in <c>budgets.json</c>; a failing counted budget names what grew since.
/// </summary>
internal static class RecordedMethodsFile
{
    /// <summary>
    /// The file's name, beside <c>budgets.json</c>: each counted budget's breakdown by method as recorded
    /// (<c>perfbudgets record</c>), which a failure is compared with.
    /// </summary>
    public const string FileName = "budgets.methods.json";

    /// <summary>Reads each budget's breakdown by method; an empty set when the file does not exist.</summary>
    /// <exception cref="BudgetFileException">The file is not in the expected shape.</exception>
    public static Dictionary<string, IReadOnlyList<AttributionEntry>> Read(string path) => Read(path, "methods", required: true);

    /// <summary>
    /// Reads each budget's own methods with what they called (<see cref="Attribution.OwnCode"/>), as recorded; an empty
    /// set when the file does not exist, and no entry for a budget recorded without them.
    /// </summary>
    /// <exception cref="BudgetFileException">The file is not in the expected shape.</exception>
    public static Dictionary<string, IReadOnlyList<AttributionEntry>> ReadOwnCode(string path) => Read(path, "ownCode", required: false);

    private static Dictionary<string, IReadOnlyList<AttributionEntry>> Read(string path, string field, bool required)
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
                var methods = node[field]?.AsObject();
                if (methods is null)
                {
                    if (required)
                    {
                        throw new BudgetFileException($"{path}: budget '{name}' has no '{field}'.");
                    }

                    continue;
                }

                result[name] = methods.Select(m => Entry(m.Key, m.Value!, unit)).ToList();
            }
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or FormatException)
        {
            throw new BudgetFileException($"{path} is not a recorded-methods file: {e.Message}", e);
        }

        return result;
    }

    /// <summary>Writes the breakdowns, budgets in name order, each one's entries largest first.</summary>
    public static void Write(string path, IReadOnlyDictionary<string, IReadOnlyList<AttributionEntry>> breakdowns) =>
        Write(path, breakdowns, new Dictionary<string, IReadOnlyList<AttributionEntry>>());

    /// <summary>
    /// Writes the breakdowns and, beside a budget's, its own methods with what they called (<paramref name="ownCode"/>),
    /// budgets in name order, each one's entries largest first. A sampled entry keeps its sample count, so a later
    /// comparison knows its error.
    /// </summary>
    public static void Write(string path, IReadOnlyDictionary<string, IReadOnlyList<AttributionEntry>> breakdowns, IReadOnlyDictionary<string, IReadOnlyList<AttributionEntry>> ownCode)
    {
        ArgumentNullException.ThrowIfNull(breakdowns);
        ArgumentNullException.ThrowIfNull(ownCode);
        var budgets = new JsonObject();
        foreach (var (name, entries) in breakdowns.OrderBy(b => b.Key, StringComparer.Ordinal))
        {
            var budget = new JsonObject { ["unit"] = entries.FirstOrDefault()?.Unit ?? string.Empty, ["methods"] = Entries(entries) };
            if (ownCode.GetValueOrDefault(name) is { Count: > 0 } own)
            {
                budget["ownCode"] = Entries(own);
            }

            budgets[name] = budget;
        }

        var root = new JsonObject
        {
            ["description"] = "Each budget's breakdown as recorded with budgets.json by perfbudgets record or calibrate: a counted budget's by method (instructions/op) or by system-call site (syscalls/op), an allocation budget's by type (B/op, from a run with PERF_DIAGNOSE=always); ownCode: the program's own methods, each with what it called. Not edited by hand.",
            ["budgets"] = budgets,
        };
        File.WriteAllText(path, root.ToJsonString(new JsonSerializerOptions { WriteIndented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping }) + "\n");
    }

    // A recorded figure: a number, or { "value": N, "samples": S } for a sampled estimate.
    private static AttributionEntry Entry(string name, JsonNode node, string unit) =>
        node is JsonObject sampled
            ? new AttributionEntry(name, sampled["value"]!.GetValue<double>(), unit, null, sampled["samples"]?.GetValue<int>())
            : new AttributionEntry(name, node.GetValue<double>(), unit, null);

    private static JsonObject Entries(IReadOnlyList<AttributionEntry> entries)
    {
        var methods = new JsonObject();
        foreach (var entry in entries.OrderByDescending(e => e.Value).ThenBy(e => e.Name, StringComparer.Ordinal))
        {
            methods[entry.Name] = entry.Samples is { } samples ? new JsonObject { ["value"] = entry.Value, ["samples"] = samples } : entry.Value;
        }

        return methods;
    }
}
