using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Text.Json;

namespace PerfBudgets.Budgets;

/// <summary>
/// The budgets and run parameters of one <c>budgets.json</c>, resolved for one profile.
/// </summary>
/// <remarks>
/// File shape:
/// <code>
/// {
///   "profiles": [ "ci", "local" ],
///   "noise": { "allocated-bytes-per-op": 0.02, "cpu-cost-max": 0.5 },
///   "noiseAbsolute": { "retained-bytes-per-op-max": 4 },
///   "budgets": [
///     { "name": "Api.DelayAsync.ServerBytesPerRequest", "kind": "allocated-bytes-per-op",
///       "limit": 1500, "unit": "B/request", "description": "why, and how the limit was set",
///       "profiles": { "local": 1400 }, "noise": 0.03, "noiseAbsolute": 0 }
///   ],
///   "parameters": [
///     { "name": "Load.Api.DurationSeconds", "value": 8, "profiles": { "local": 60 } }
///   ]
/// }
/// </code>
/// A budget may also carry a limit per target framework, for a test project built for several runtimes:
/// <code>
///     { "name": "Sockets.SaeaLoop.Instructions", "kind": "instructions-max", "limit": 3293, …,
///       "runtimes": { "net8.0": { "limit": 3330, "recorded": 3297, "recordedOn": { "runtime": "8.0.34", "valgrind": "3.19.0" } } } }
/// </code>
/// The book is loaded for one target framework (<see cref="BudgetGateOptions.TargetFramework"/>, by default the one the
/// test assembly was built for): a budget's entry for it replaces the fields it names (<c>limit</c>, <c>profiles</c>,
/// <c>recorded</c>, <c>margin</c>, <c>recordedOn</c>, <c>noise</c>, <c>noiseAbsolute</c>), and a budget without one keeps
/// its own. A profile override replaces the limit (or value) for that profile only. <c>noise</c> (per kind, optional per budget)
/// and <c>noiseAbsolute</c> (optional per kind and per budget, in the budget's unit) are the run-to-run spread a
/// comparison with a baseline tolerates (<see cref="NoiseThreshold(string)"/>); a budget's own <c>noiseAbsolute</c>
/// overrides its kind's, and without either it is 0. Every error names the file and the entry.
/// </remarks>
public sealed partial class BudgetBook
{
    /// <summary>The file name searched for upwards from the application's base directory.</summary>
    public const string FileName = "budgets.json";

    private readonly Dictionary<string, Budget> _budgets;
    private readonly Dictionary<string, double> _parameters;
    private readonly Dictionary<string, double> _noise;
    private readonly Dictionary<string, double> _noiseAbsolute;

    private BudgetBook(string path, string profile, Dictionary<string, Budget> budgets, Dictionary<string, double> parameters,
        Dictionary<string, double> noise, Dictionary<string, double> noiseAbsolute)
    {
        _noise = noise;
        _noiseAbsolute = noiseAbsolute;
        FilePath = path;
        Profile = profile;
        _budgets = budgets;
        _parameters = parameters;
    }

    /// <summary>
    /// The noise threshold of the budget <paramref name="name"/>: its own <c>noise</c> if it has one, else the one for its
    /// kind in the file's <c>noise</c> object; throws when neither is defined (there is no default threshold).
    /// </summary>
    internal NoiseThreshold NoiseThreshold(string name) =>
        TryGetNoiseThreshold(name, out var threshold)
            ? threshold
            : throw new BudgetFileException($"{FilePath} defines no noise threshold for budget '{name}': add \"{Get(name).Kind}\" to the top-level 'noise' object, or a 'noise' field to the budget.");

    /// <summary>
    /// The noise threshold of the budget <paramref name="name"/> as <see cref="NoiseThreshold(string)"/> finds it; false
    /// when the file defines none for it (a comparison that is only information then shows the change unflagged).
    /// Throws when the file does not define the budget.
    /// </summary>
    internal bool TryGetNoiseThreshold(string name, [NotNullWhen(true)] out NoiseThreshold? threshold)
    {
        var budget = Get(name);
        threshold = budget.Noise is { } own ? new NoiseThreshold(own, budget.NoiseAbsolute, "budget")
            : _noise.TryGetValue(budget.Kind.Name, out var byKind) ? new NoiseThreshold(byKind, budget.NoiseAbsolute, "kind")
            : null;
        return threshold is not null;
    }

    /// <summary>The file's <c>noise</c> for <paramref name="kind"/> (a kind's name), or null when it gives none.</summary>
    internal double? KindNoise(string kind) => _noise.TryGetValue(kind, out var threshold) ? threshold : null;

    /// <summary>The file's <c>noiseAbsolute</c> for <paramref name="kind"/> (a kind's name), 0 when it gives none.</summary>
    internal double KindNoiseAbsolute(string kind) => _noiseAbsolute.GetValueOrDefault(kind);

    /// <summary>The file the budgets were read from.</summary>
    public string FilePath { get; }

    /// <summary>The profile the limits were resolved for.</summary>
    public string Profile { get; }

    /// <summary>Every budget in file order.</summary>
    public IReadOnlyCollection<Budget> Budgets => _budgets.Values;

    /// <summary>The budget called <paramref name="name"/>; throws if the file does not define it.</summary>
    public Budget Get(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return _budgets.TryGetValue(name, out var budget)
            ? budget
            : throw new BudgetFileException($"{FilePath} defines no budget named '{name}'. Add it to the file; there is no default limit.");
    }

    /// <summary>A run parameter (duration, copies, counts); throws if the file does not define it.</summary>
    public double Parameter(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return _parameters.TryGetValue(name, out var value)
            ? value
            : throw new BudgetFileException($"{FilePath} defines no parameter named '{name}'. Add it to the file; there is no default.");
    }

    /// <summary>A whole-number run parameter; throws if it is missing or not an integer.</summary>
    public int IntParameter(string name)
    {
        var value = Parameter(name);
        return value == Math.Floor(value) && value is >= int.MinValue and <= int.MaxValue
            ? (int)value
            : throw new BudgetFileException($"{FilePath}: parameter '{name}' must be a whole number, not {value.ToString(CultureInfo.InvariantCulture)}.");
    }

    /// <summary>
    /// Finds the budget file: <paramref name="explicitPath"/> when given (it must exist), else the nearest
    /// <c>budgets.json</c> above <see cref="AppContext.BaseDirectory"/>.
    /// </summary>
    public static string Locate(string? explicitPath = null)
    {
        if (!string.IsNullOrWhiteSpace(explicitPath))
        {
            return File.Exists(explicitPath)
                ? Path.GetFullPath(explicitPath)
                : throw new BudgetFileException($"The budget file '{explicitPath}' does not exist (set by {HarnessEnvironment.BudgetsFileVariable} or BudgetGateOptions.BudgetsFile).");
        }

        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, FileName);
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new BudgetFileException($"No {FileName} found above '{AppContext.BaseDirectory}'. Set {HarnessEnvironment.BudgetsFileVariable} to its path.");
    }

    /// <summary>Loads <paramref name="path"/> and resolves every limit for <paramref name="profile"/>.</summary>
    public static BudgetBook Load(string path, string profile) => Load(path, profile, targetFramework: null);

    /// <summary>
    /// Loads <paramref name="path"/> and resolves every limit for <paramref name="profile"/> and
    /// <paramref name="targetFramework"/> (a budget's <c>runtimes</c> entry for it, e.g. <c>net8.0</c>; null for none).
    /// </summary>
    public static BudgetBook Load(string path, string profile, string? targetFramework)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        ArgumentException.ThrowIfNullOrWhiteSpace(profile);
        string text;
        try
        {
            text = File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new BudgetFileException($"Cannot read budget file '{path}': {e.Message}", e);
        }

        return Parse(text, path, profile, targetFramework);
    }

    /// <summary>Parses budget file text; <paramref name="sourceName"/> is used in error messages.</summary>
    public static BudgetBook Parse(string json, string sourceName, string profile) => Parse(json, sourceName, profile, targetFramework: null);

    /// <summary>
    /// Parses budget file text for <paramref name="profile"/> and <paramref name="targetFramework"/> (null for none);
    /// <paramref name="sourceName"/> is used in error messages.
    /// </summary>
    public static BudgetBook Parse(string json, string sourceName, string profile, string? targetFramework)
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
                var (entry, runtimeOverride) = ForTargetFramework(fileEntry, targetFramework, where);
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

    // The fields a budget's runtimes entry may replace.
    private static readonly HashSet<string> RuntimeFields = new(StringComparer.Ordinal) { "limit", "profiles", "recorded", "margin", "marginAbsolute", "recordedOn", "noise", "noiseAbsolute" };

    // The budget entry as it applies to targetFramework: its "runtimes" entry for that framework laid over it, and
    // whether there was one. Every entry of "runtimes" is checked, not only the active one, so a typo fails on every
    // runtime.
    private static (JsonElement Entry, bool Overridden) ForTargetFramework(JsonElement entry, string? targetFramework, string where)
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
        var expected = CountedMargin.Limit(budget.Kind, recorded, margin, marginAbsolute);
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

    /// <summary>
    /// The limit of a counted budget: <paramref name="recorded"/> × (1 + <paramref name="margin"/>), rounded up to two
    /// decimals (counts per operation are averages over a repetition, so they are not whole numbers).
    /// </summary>
    public static double CountedLimit(double recorded, double margin) => Math.Ceiling(recorded * (1 + margin) * 100) / 100;

    /// <summary>
    /// The limit of a counted budget of <paramref name="kind"/>: for <see cref="BudgetKind.GrowthExponentMax"/>,
    /// <paramref name="recorded"/> + <paramref name="margin"/> (the margin in exponent units: an exponent near 0 has
    /// no useful fraction), rounded up to three decimals; for the other counted kinds <see cref="CountedLimit(double, double)"/>.
    /// </summary>
    public static double CountedLimit(BudgetKind kind, double recorded, double margin) =>
        kind == BudgetKind.GrowthExponentMax
            ? Math.Ceiling(Math.Round((recorded + margin) * 1000, 6)) / 1000
            : CountedLimit(recorded, margin);

    /// <summary>
    /// What a counted budget of <paramref name="kind"/> is recorded at from the figures of one run or more: their
    /// median, rounded to four decimals for a growth exponent and to two for a count, and the limit
    /// <see cref="CountedLimit(BudgetKind, double, double)"/> of it and <paramref name="margin"/>.
    /// </summary>
    public static (double Recorded, double Limit) CountedRecording(BudgetKind kind, IReadOnlyList<double> counts, double margin)
    {
        ArgumentNullException.ThrowIfNull(kind);
        ArgumentNullException.ThrowIfNull(counts);
        ArgumentOutOfRangeException.ThrowIfZero(counts.Count);
        var recorded = Math.Round(Median(counts), kind == BudgetKind.GrowthExponentMax ? 4 : 2);
        return (recorded, CountedLimit(kind, recorded, margin));
    }

    /// <summary>
    /// What a counted budget is recorded at from the counts of one run or more: <c>recorded</c> is their median rounded
    /// to two decimals, and the limit <see cref="CountedLimit(double, double)"/> of it and <paramref name="margin"/>.
    /// </summary>
    /// <param name="counts">The counts per operation the runs measured; at least one.</param>
    /// <param name="margin">The budget's margin (0.01 reads as 1%).</param>
    public static (double Recorded, double Limit) CountedRecording(IReadOnlyList<double> counts, double margin)
    {
        ArgumentNullException.ThrowIfNull(counts);
        ArgumentOutOfRangeException.ThrowIfZero(counts.Count);
        var recorded = Math.Round(Median(counts), 2);
        return (recorded, CountedLimit(recorded, margin));
    }

    /// <summary>The middle value, or the mean of the two middle values of an even count.</summary>
    internal static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToList();
        var middle = sorted.Count / 2;
        return sorted.Count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
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
