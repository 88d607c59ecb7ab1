using System.Diagnostics.CodeAnalysis;
using System.Globalization;

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

    // Made by BudgetFileReader, which checks everything the file says.
    internal BudgetBook(string path, string profile, Dictionary<string, Budget> budgets, Dictionary<string, double> parameters,
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
    public bool TryGetNoiseThreshold(string name, [NotNullWhen(true)] out NoiseThreshold? threshold)
    {
        var budget = Get(name);
        threshold = budget.Noise is { } own ? new NoiseThreshold(own, budget.NoiseAbsolute, "budget")
            : _noise.TryGetValue(budget.Kind.Name, out var byKind) ? new NoiseThreshold(byKind, budget.NoiseAbsolute, "kind")
            : null;
        return threshold is not null;
    }

    /// <summary>The file's <c>noise</c> for <paramref name="kind"/> (a kind's name), or null when it gives none.</summary>
    public double? KindNoise(string kind) => _noise.TryGetValue(kind, out var threshold) ? threshold : null;

    /// <summary>The file's <c>noiseAbsolute</c> for <paramref name="kind"/> (a kind's name), 0 when it gives none.</summary>
    public double KindNoiseAbsolute(string kind) => _noiseAbsolute.GetValueOrDefault(kind);

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
    public static BudgetBook Parse(string json, string sourceName, string profile, string? targetFramework) =>
        BudgetFileReader.Read(json, sourceName, profile, targetFramework);
}
