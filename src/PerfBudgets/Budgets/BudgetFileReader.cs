using System.Globalization;
using System.Text.Json;

namespace PerfBudgets.Budgets;

/// <summary>
/// Reads a <c>budgets.json</c> into a <see cref="BudgetBook"/> for one profile and target framework (the file's shape is
/// in <see cref="BudgetBook"/>'s remarks). Everything the file says is checked here, and every error names the file and
/// the entry.
/// </summary>
internal static class BudgetFileReader
{
    /// <summary>
    /// Parses <paramref name="json"/> for <paramref name="profile"/> and <paramref name="targetFramework"/> (null for none);
    /// <paramref name="sourceName"/> is used in error messages.
    /// </summary>
    public static BudgetBook Read(string json, string sourceName, string profile, string? targetFramework)
    {
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json, new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });
        }
        catch (JsonException e)
        {
            throw new BudgetFileException($"{sourceName} is not valid JSON: {e.Message}", e);
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw new BudgetFileException($"{sourceName}: the root must be an object.");
            }

            var profiles = ReadProfiles(root, sourceName);
            if (!profiles.Contains(profile))
            {
                throw new BudgetFileException($"{sourceName}: profile '{profile}' (the profile asked for, by {HarnessEnvironment.ProfileVariable} or BudgetGateOptions.Profile) is not one of: {string.Join(", ", profiles)}.");
            }

            // Read first: a budget without its own absolute floor takes its kind's.
            var kindNoiseAbsolute = ReadNoise(root, sourceName, "noiseAbsolute");
            var budgets = new Dictionary<string, Budget>(StringComparer.Ordinal);
            foreach (var fileEntry in ReadArray(root, "budgets", sourceName))
            {
                var name = RequiredString(fileEntry, "name", sourceName, "budget");
                var where = $"{sourceName}: budget '{name}'";
                var (entry, runtimeOverride) = BudgetRuntimes.ForTargetFramework(fileEntry, targetFramework, where);
                if (runtimeOverride)
                {
                    where = $"{where} ({targetFramework})";
                }

                var kindName = RequiredString(entry, "kind", sourceName, where);
                if (!BudgetKind.TryParse(kindName, out var kind))
                {
                    throw new BudgetFileException($"{where}: unknown kind '{kindName}'. Known kinds: {string.Join(", ", BudgetKind.All)}.");
                }

                var limit = ResolveNumber(entry, "limit", profile, profiles, where);
                var unit = RequiredString(entry, "unit", sourceName, where);
                var description = entry.TryGetProperty("description", out var d) && d.ValueKind == JsonValueKind.String ? d.GetString()! : string.Empty;
                var noise = OptionalNonNegative(entry, "noise", where);
                var noiseAbsolute = OptionalNonNegative(entry, "noiseAbsolute", where) ?? kindNoiseAbsolute.GetValueOrDefault(kind.Name);
                var budget = new Budget(name, kind, limit, unit, profile, description)
                {
                    Noise = noise,
                    NoiseAbsolute = noiseAbsolute,
                    TargetFramework = runtimeOverride ? targetFramework : null,
                };
                if (kind.IsCounted)
                {
                    budget = ReadRecording(entry, budget, where);
                }

                budget = budget with { PairedRule = ReadPairedRule(entry, kind, where) };
                if (!budgets.TryAdd(name, budget))
                {
                    throw new BudgetFileException($"{where} is defined twice.");
                }
            }

            var parameters = new Dictionary<string, double>(StringComparer.Ordinal);
            if (root.TryGetProperty("parameters", out _))
            {
                foreach (var entry in ReadArray(root, "parameters", sourceName))
                {
                    var name = RequiredString(entry, "name", sourceName, "parameter");
                    var where = $"{sourceName}: parameter '{name}'";
                    if (!parameters.TryAdd(name, ResolveNumber(entry, "value", profile, profiles, where)))
                    {
                        throw new BudgetFileException($"{where} is defined twice.");
                    }
                }
            }

            return new BudgetBook(sourceName, profile, budgets, parameters, ReadNoise(root, sourceName, "noise"), kindNoiseAbsolute);
        }
    }

    // How a paired budget judges its interval: "catch" (the default) or "beyond"; meaningless on any other kind.
    private static PairedRule ReadPairedRule(JsonElement entry, BudgetKind kind, string where)
    {
        if (!entry.TryGetProperty("pairedRule", out var value))
        {
            return PairedRule.Catch;
        }

        if (!kind.IsPaired)
        {
            throw new BudgetFileException($"{where}: 'pairedRule' applies to paired budgets only ({BudgetKind.VsBaseRatioMax}, {BudgetKind.VsBaseRatioMin}), not to {kind}.");
        }

        return value.ValueKind == JsonValueKind.String ? value.GetString() switch
        {
            "catch" => PairedRule.Catch,
            "beyond" => PairedRule.Beyond,
            _ => throw UnknownRule(),
        } : throw UnknownRule();

        BudgetFileException UnknownRule() => new($"{where}: 'pairedRule' is {value.GetRawText()}; it is \"catch\" (fail when the interval shows a change and does not rule the limit out: the default) or \"beyond\" (fail only when the whole interval lies beyond the limit).");
    }

    // A counted budget carries how its limit came about: the recorded count, the margin above it, and the versions it
    // was recorded with; the limit must be what the two give, so a hand-edited limit cannot drift from its recording.
    private static Budget ReadRecording(JsonElement entry, Budget budget, string where)
    {
        // A growth exponent may be below 0 (a fixed cost that shrinks at the larger size); a count may not.
        var recorded = (budget.Kind == BudgetKind.GrowthExponentMax ? OptionalNumber(entry, "recorded", where) : OptionalNonNegative(entry, "recorded", where))
            ?? throw new BudgetFileException($"{where}: a {budget.Kind} budget needs 'recorded' (the count it was recorded at); record it with perfbudgets record.");
        var margin = OptionalNonNegative(entry, "margin", where)
            ?? throw new BudgetFileException($"{where}: a {budget.Kind} budget needs 'margin' (the fraction above 'recorded' its limit allows, e.g. 0.01).");
        if (!entry.TryGetProperty("recordedOn", out var on) || on.ValueKind != JsonValueKind.Object
            || !on.TryGetProperty("runtime", out var runtime) || runtime.ValueKind != JsonValueKind.String
            || !on.TryGetProperty("valgrind", out var valgrind) || valgrind.ValueKind != JsonValueKind.String)
        {
            throw new BudgetFileException($"{where}: a {budget.Kind} budget needs 'recordedOn': {{ \"runtime\": \"10.0.12\", \"valgrind\": \"3.19.0\" }}.");
        }

        var marginAbsolute = OptionalNonNegative(entry, "marginAbsolute", where) ?? 0;
        var expected = CountedLimits.Limit(budget.Kind, recorded, margin, marginAbsolute);
        if (Math.Abs(budget.Limit - expected) > 1e-9)
        {
            var sum = budget.Kind == BudgetKind.GrowthExponentMax
                ? string.Create(CultureInfo.InvariantCulture, $"recorded {recorded} + margin {margin}")
                : string.Create(CultureInfo.InvariantCulture, $"recorded {recorded} + margin {margin:P1}{(marginAbsolute > 0 ? $" + marginAbsolute {marginAbsolute}" : "")}");
            throw new BudgetFileException(string.Create(CultureInfo.InvariantCulture,
                $"{where}: limit {budget.Limit} is not {sum} = {expected}; change 'recorded' or 'margin' (or re-record), not the limit."));
        }

        return budget with
        {
            Recorded = recorded,
            Margin = margin,
            MarginAbsolute = marginAbsolute,
            RecordedOn = new RecordedVersions(runtime.GetString()!, valgrind.GetString()!),
        };
    }

    // The top-level map of kind to threshold: "noise" (a fraction) or "noiseAbsolute" (in the budgets' unit).
    private static Dictionary<string, double> ReadNoise(JsonElement root, string sourceName, string property)
    {
        var noise = new Dictionary<string, double>(StringComparer.Ordinal);
        if (!root.TryGetProperty(property, out var section))
        {
            return noise;
        }

        if (section.ValueKind != JsonValueKind.Object)
        {
            throw new BudgetFileException(property == "noise"
                ? $"{sourceName}: 'noise' must be an object of budget kind to threshold (a fraction, e.g. 0.15)."
                : $"{sourceName}: '{property}' must be an object of budget kind to floor (in the budgets' unit, e.g. 4).");
        }

        foreach (var entry in section.EnumerateObject())
        {
            if (!BudgetKind.TryParse(entry.Name, out _))
            {
                throw new BudgetFileException($"{sourceName}: '{property}' names unknown kind '{entry.Name}'. Known kinds: {string.Join(", ", BudgetKind.All)}.");
            }

            noise[entry.Name] = OptionalNonNegative(section, entry.Name, $"{sourceName}: '{property}'")!.Value;
        }

        return noise;
    }

    private static double? OptionalNumber(JsonElement entry, string property, string where)
    {
        if (!entry.TryGetProperty(property, out var value))
        {
            return null;
        }

        return value.ValueKind == JsonValueKind.Number
            ? value.GetDouble()
            : throw new BudgetFileException($"{where}: '{property}' must be a number.");
    }

    private static double? OptionalNonNegative(JsonElement entry, string property, string where)
    {
        if (!entry.TryGetProperty(property, out var value))
        {
            return null;
        }

        return value.ValueKind == JsonValueKind.Number && value.GetDouble() >= 0
            ? value.GetDouble()
            : throw new BudgetFileException($"{where}: '{property}' must be a number at least 0.");
    }

    private static HashSet<string> ReadProfiles(JsonElement root, string sourceName)
    {
        var profiles = new HashSet<string>(StringComparer.Ordinal);
        if (!root.TryGetProperty("profiles", out var list) || list.ValueKind != JsonValueKind.Array)
        {
            throw new BudgetFileException($"{sourceName}: 'profiles' must be an array of profile names.");
        }

        foreach (var item in list.EnumerateArray())
        {
            if (item.ValueKind != JsonValueKind.String || string.IsNullOrWhiteSpace(item.GetString()))
            {
                throw new BudgetFileException($"{sourceName}: every entry of 'profiles' must be a non-empty string.");
            }

            profiles.Add(item.GetString()!);
        }

        return profiles;
    }

    private static IEnumerable<JsonElement> ReadArray(JsonElement root, string property, string sourceName)
    {
        if (!root.TryGetProperty(property, out var array) || array.ValueKind != JsonValueKind.Array)
        {
            throw new BudgetFileException($"{sourceName}: '{property}' must be an array.");
        }

        foreach (var entry in array.EnumerateArray())
        {
            if (entry.ValueKind != JsonValueKind.Object)
            {
                throw new BudgetFileException($"{sourceName}: every entry of '{property}' must be an object.");
            }

            yield return entry;
        }
    }

    private static string RequiredString(JsonElement entry, string property, string sourceName, string where)
    {
        if (entry.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.String && !string.IsNullOrWhiteSpace(value.GetString()))
        {
            return value.GetString()!;
        }

        throw new BudgetFileException($"{(where.StartsWith(sourceName, StringComparison.Ordinal) ? where : $"{sourceName}: a {where}")} has no '{property}' string.");
    }

    private static double ResolveNumber(JsonElement entry, string property, string profile, HashSet<string> profiles, string where)
    {
        if (!entry.TryGetProperty(property, out var value) || value.ValueKind != JsonValueKind.Number)
        {
            throw new BudgetFileException($"{where} has no numeric '{property}'.");
        }

        var resolved = value.GetDouble();
        if (entry.TryGetProperty("profiles", out var overrides))
        {
            if (overrides.ValueKind != JsonValueKind.Object)
            {
                throw new BudgetFileException($"{where}: 'profiles' must be an object of profile name to number.");
            }

            foreach (var over in overrides.EnumerateObject())
            {
                if (!profiles.Contains(over.Name))
                {
                    throw new BudgetFileException($"{where}: override for unknown profile '{over.Name}'.");
                }

                if (over.Value.ValueKind != JsonValueKind.Number)
                {
                    throw new BudgetFileException($"{where}: override for profile '{over.Name}' must be a number.");
                }

                if (over.Name == profile)
                {
                    resolved = over.Value.GetDouble();
                }
            }
        }

        return resolved;
    }
}
