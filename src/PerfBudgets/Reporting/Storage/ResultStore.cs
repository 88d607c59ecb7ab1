using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using PerfBudgets.Budgets;
using PerfBudgets.Load;
using PerfBudgets.Processes;

namespace PerfBudgets.Reporting.Storage;

/// <summary>
/// Keeps <c>results.json</c> up to date after every measurement and appends it to <c>history.jsonl</c>; reads both back.
/// </summary>
/// <remarks>
/// Several test processes (one per test project) write to the same folder one after another, so each write
/// merges into the file under an exclusive lock file: the newest result for a budget replaces the older one and
/// results of other budgets are kept. Every result is also appended, as one JSON line with its run id, to
/// <c>history.jsonl</c> in the same folder, which nothing here ever truncates. The store persists and reads; it renders
/// nothing and reads no setting of its own: <c>summary.md</c>, the CI step summary and <c>report.html</c> are the
/// exporters' (<c>PerfBudgets.Reporting.Exporters</c>), which a caller runs under the store's lock with the results it
/// has just written.
/// </remarks>
public sealed class ResultStore
{
    private static readonly JsonSerializerOptions JsonOptions = new()
    {
        WriteIndented = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.KebabCaseLower), new LoadResultJson() },
    };

    private static readonly JsonSerializerOptions HistoryOptions = new(JsonOptions) { WriteIndented = false };

    private readonly object _gate = new();

    /// <summary>Creates a store that writes into <paramref name="directory"/>.</summary>
    public ResultStore(string directory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        Directory = Path.GetFullPath(directory);
    }

    /// <summary>The output folder.</summary>
    public string Directory { get; }

    /// <summary>Path of <c>results.json</c>.</summary>
    public string ResultsPath => Path.Combine(Directory, "results.json");

    /// <summary>Path of <c>summary.md</c>, which the gate's exporters write into the same folder.</summary>
    public string SummaryPath => Path.Combine(Directory, "summary.md");

    /// <summary>Path of <c>history.jsonl</c>: one line per recorded result of every run, oldest first.</summary>
    public string HistoryPath => Path.Combine(Directory, "history.jsonl");

    /// <summary>The default folder: <c>artifacts/budgets</c> beside the budget file.</summary>
    public static string DefaultDirectory(string budgetFilePath) =>
        Path.Combine(Path.GetDirectoryName(Path.GetFullPath(budgetFilePath))!, "artifacts", "budgets");

    /// <summary>
    /// Records one result, rewriting <c>results.json</c>, and appends it to <c>history.jsonl</c> as part of
    /// <paramref name="run"/>. <paramref name="stored"/>, when given, is called between the two, still under the lock
    /// file, with every result <c>results.json</c> now holds (the exporters' <c>summary.md</c>).
    /// </summary>
    public void Record(BudgetResult result, RunIdentity run, Action<IReadOnlyList<BudgetResult>>? stored = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(run);
        lock (_gate)
        {
            Update(file =>
            {
                var all = file.Results.Where(r => r.Budget != result.Budget).Append(result with { RunId = run.RunId }).ToList();
                all.Sort((a, b) => string.CompareOrdinal(a.Budget, b.Budget));
                return file with { Results = all };
            },
            stored,
            // Under the same lock file, so the lines of the test processes never interleave.
            () => File.AppendAllText(HistoryPath, JsonSerializer.Serialize(HistoryEntry.Of(result, run), HistoryOptions) + "\n", new UTF8Encoding(false)));
        }
    }

    /// <summary>
    /// Records one load run in the <c>loads</c> array of <c>results.json</c> (<see cref="LoadResultJson"/>), replacing an
    /// older run of its scenario. The other entries are kept as they were read, fields this version does not know included.
    /// <paramref name="stored"/>, when given, is called under the lock file with the results <c>results.json</c> holds.
    /// </summary>
    internal void RecordLoad(LoadResult load, Action<IReadOnlyList<BudgetResult>>? stored = null)
    {
        ArgumentNullException.ThrowIfNull(load);
        var entry = JsonSerializer.SerializeToElement(load, JsonOptions);
        lock (_gate)
        {
            Update(file =>
            {
                var all = (file.Loads ?? []).Where(l => ScenarioOf(l) != load.Scenario).Append(entry).ToList();
                all.Sort((a, b) => string.CompareOrdinal(ScenarioOf(a), ScenarioOf(b)));
                return file with { Loads = all };
            },
            stored);
        }
    }

    /// <summary>
    /// The load runs of the <c>loads</c> array of the results file at <paramref name="resultsPath"/>; empty when the file
    /// or the array is absent. An entry that cannot be read (no scenario name, wrong types) is skipped and counted in
    /// <paramref name="skipped"/>.
    /// </summary>
    internal static List<LoadResult> ReadLoads(string resultsPath, out int skipped)
    {
        skipped = 0;
        var loads = new List<LoadResult>();
        foreach (var entry in ReadFile(resultsPath).Loads ?? [])
        {
            try
            {
                loads.Add(LoadResultJson.Read(entry));
            }
            catch (Exception e) when (e is JsonException or InvalidOperationException or FormatException or OverflowException)
            {
                skipped++;
            }
        }

        return loads;
    }

    private static string? ScenarioOf(JsonElement entry) =>
        entry.ValueKind == JsonValueKind.Object && entry.TryGetProperty("scenario", out var name) && name.ValueKind == JsonValueKind.String ? name.GetString() : null;


    /// <summary>
    /// Parses the text of a <c>results.json</c>; unlike <see cref="ReadAll"/> it throws <see cref="JsonException"/> when
    /// the text is not one (a baseline must not be read as empty by mistake).
    /// </summary>
    public static IReadOnlyList<BudgetResult> Parse(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        var file = JsonSerializer.Deserialize<ResultsFile>(json, JsonOptions);
        return file?.Results ?? throw new JsonException("no 'results' array");
    }

    /// <summary>
    /// Reads <c>history.jsonl</c>, oldest first; an absent file reads as empty, and a line that is not a history entry
    /// (a run killed mid-write) is skipped and counted in <paramref name="skipped"/>.
    /// </summary>
    public static IReadOnlyList<HistoryEntry> ReadHistory(string historyPath, out int skipped)
    {
        skipped = 0;
        var entries = new List<HistoryEntry>();
        if (!File.Exists(historyPath))
        {
            return entries;
        }

        foreach (var line in File.ReadLines(historyPath))
        {
            if (string.IsNullOrWhiteSpace(line))
            {
                continue;
            }

            try
            {
                if (JsonSerializer.Deserialize<HistoryEntry>(line, HistoryOptions) is { Budget: not null, RunId: not null } entry)
                {
                    entries.Add(entry);
                    continue;
                }
            }
            catch (JsonException)
            {
            }

            skipped++;
        }

        return entries;
    }

    /// <summary>Reads a results file written by this class; an absent file reads as empty.</summary>
    public static List<BudgetResult> ReadAll(string resultsPath) => ReadFile(resultsPath).Results.ToList();

    private static ResultsFile ReadFile(string resultsPath)
    {
        if (!File.Exists(resultsPath))
        {
            return ResultsFile.Empty;
        }

        try
        {
            var file = JsonSerializer.Deserialize<ResultsFile>(File.ReadAllText(resultsPath), JsonOptions);
            return file is null ? ResultsFile.Empty : file with { Results = file.Results ?? [] };
        }
        catch (JsonException)
        {
            // A results file from an older layout is replaced rather than merged; the measurements it held are stale.
            return ResultsFile.Empty;
        }
    }

    // Under the lock file: read, change, write, then let the caller export what was written, so the test processes
    // never lose each other's rows and summary.md never shows an older results.json than the one beside it.
    private void Update(Func<ResultsFile, ResultsFile> change, Action<IReadOnlyList<BudgetResult>>? stored, Action? alsoUnderLock = null)
    {
        System.IO.Directory.CreateDirectory(Directory);
        using var fileLock = AcquireLock();
        var file = change(ReadFile(ResultsPath));
        WriteAtomically(ResultsPath, JsonSerializer.Serialize(file, JsonOptions));
        stored?.Invoke(file.Results);
        alsoUnderLock?.Invoke();
    }

    private FileStream AcquireLock()
    {
        var lockPath = Path.Combine(Directory, ".results.lock");
        return FileLock.TryAcquire(lockPath, TimeSpan.FromSeconds(5), TimeSpan.FromMilliseconds(25))?.Held
            ?? throw new IOException($"Another process held {lockPath} for more than 5 s while storing results.");
    }

    private static void WriteAtomically(string path, string content)
    {
        var temp = path + ".tmp";
        File.WriteAllText(temp, content, new UTF8Encoding(false));
        File.Move(temp, path, overwrite: true);
    }

    // The loads stay JSON until asked for (ReadLoads), so one entry this version cannot read loses nothing else.
    private sealed record ResultsFile(IReadOnlyList<BudgetResult> Results, IReadOnlyList<JsonElement>? Loads = null)
    {
        public static ResultsFile Empty { get; } = new([], null);
    }
}
