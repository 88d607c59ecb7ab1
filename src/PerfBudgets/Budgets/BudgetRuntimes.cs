using System.Text.Json;

namespace PerfBudgets.Budgets;

/// <summary>
/// A budget's <c>runtimes</c> entry: the fields that differ for a target framework (a test project built for several
/// runtimes), laid over the budget's own when the book is read for that framework.
/// </summary>
internal static partial class BudgetRuntimes
{
    // The fields a budget's runtimes entry may replace.
    private static readonly HashSet<string> RuntimeFields = new(StringComparer.Ordinal) { "limit", "profiles", "recorded", "margin", "marginAbsolute", "recordedOn", "noise", "noiseAbsolute" };

    /// <summary>
    /// The budget entry as it applies to targetFramework: its "runtimes" entry for that framework laid over it, and
    /// whether there was one. Every entry of "runtimes" is checked, not only the active one, so a typo fails on every
    /// runtime.
    /// </summary>
    public static (JsonElement Entry, bool Overridden) ForTargetFramework(JsonElement entry, string? targetFramework, string where)
    {
        if (!entry.TryGetProperty("runtimes", out var runtimes))
        {
            return (entry, false);
        }

        if (runtimes.ValueKind != JsonValueKind.Object)
        {
            throw new BudgetFileException($"{where}: 'runtimes' must be an object of target framework (e.g. \"net8.0\") to the fields that differ there.");
        }

        JsonElement? active = null;
        foreach (var runtime in runtimes.EnumerateObject())
        {
            if (!TargetFrameworkName().IsMatch(runtime.Name))
            {
                throw new BudgetFileException($"{where}: 'runtimes' entry '{runtime.Name}' is not a target framework such as net8.0 or net10.0.");
            }

            if (runtime.Value.ValueKind != JsonValueKind.Object)
            {
                throw new BudgetFileException($"{where}: 'runtimes' entry '{runtime.Name}' must be an object, e.g. {{ \"limit\": 3330 }}.");
            }

            foreach (var field in runtime.Value.EnumerateObject())
            {
                if (!RuntimeFields.Contains(field.Name))
                {
                    throw new BudgetFileException($"{where}: 'runtimes' entry '{runtime.Name}' sets '{field.Name}'; a runtime may set only {string.Join(", ", RuntimeFields.Order(StringComparer.Ordinal))}.");
                }
            }

            if (string.Equals(runtime.Name, targetFramework, StringComparison.OrdinalIgnoreCase))
            {
                active = runtime.Value;
            }
        }

        if (active is not { } fields)
        {
            return (entry, false);
        }

        var merged = System.Text.Json.Nodes.JsonNode.Parse(entry.GetRawText())!.AsObject();
        merged.Remove("runtimes");
        foreach (var field in fields.EnumerateObject())
        {
            merged[field.Name] = System.Text.Json.Nodes.JsonNode.Parse(field.Value.GetRawText());
        }

        using var document = JsonDocument.Parse(merged.ToJsonString());
        return (document.RootElement.Clone(), true);
    }

    [System.Text.RegularExpressions.GeneratedRegex(@"^net[0-9]+\.[0-9]+$")]
    private static partial System.Text.RegularExpressions.Regex TargetFrameworkName();
}
