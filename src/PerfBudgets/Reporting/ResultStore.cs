using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace PerfBudgets.Reporting;

/// <summary>
/// Keeps <c>results.json</c> and <c>summary.md</c> up to date after every measurement.
/// </summary>
/// <remarks>
/// Several test processes (one per test project) write to the same folder one after another, so each write
/// merges into the file under an exclusive lock file: the newest result for a budget replaces the older one and
/// results of other budgets are kept. Each process also appends its own rows to <c>GITHUB_STEP_SUMMARY</c> when
/// that variable is set, once, as it exits.
/// </remarks>
public sealed class ResultStore
{
    /// <summary>Environment variable that overrides the output folder.</summary>
    public const string DirectoryEnvironmentVariable = "PERF_ARTIFACTS_DIR";

    private static readonly JsonSerializerOptions JsonOptions = new()
    {
        WriteIndented = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.KebabCaseLower) },
    };

    private readonly object _gate = new();
    private readonly List<BudgetResult> _thisProcess = [];
    private bool _exitHookInstalled;

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

    /// <summary>Path of <c>summary.md</c>.</summary>
    public string SummaryPath => Path.Combine(Directory, "summary.md");

    /// <summary>The default folder: <see cref="DirectoryEnvironmentVariable"/>, else <c>artifacts/budgets</c> beside the budget file.</summary>
    public static string DefaultDirectory(string budgetFilePath)
    {
        var configured = Environment.GetEnvironmentVariable(DirectoryEnvironmentVariable);
        return !string.IsNullOrWhiteSpace(configured)
            ? configured
            : Path.Combine(Path.GetDirectoryName(Path.GetFullPath(budgetFilePath))!, "artifacts", "budgets");
    }

    /// <summary>Records one result, rewriting both files.</summary>
    public void Record(BudgetResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        lock (_gate)
        {
            _thisProcess.Add(result);
            InstallExitHook();
            Update(file =>
            {
                var all = file.Results.Where(r => r.Budget != result.Budget).Append(result).ToList();
                all.Sort((a, b) => string.CompareOrdinal(a.Budget, b.Budget));
                return file with { Results = all };
            });
        }
    }

    /// <summary>Records one load scenario's statistics in the <c>loads</c> array of <c>results.json</c>, replacing an older run of it.</summary>
    public void RecordLoad(LoadReport load)
    {
        ArgumentNullException.ThrowIfNull(load);
        lock (_gate)
        {
            Update(file =>
            {
                var all = (file.Loads ?? []).Where(l => l.Scenario != load.Scenario).Append(load).ToList();
                all.Sort((a, b) => string.CompareOrdinal(a.Scenario, b.Scenario));
                return file with { Loads = all };
            });
        }
    }

    /// <summary>Reads the load scenarios of a results file written by this class; an absent file reads as empty.</summary>
    public static List<LoadReport> ReadLoads(string resultsPath) => ReadFile(resultsPath).Loads?.ToList() ?? [];

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

    // Under the lock file: read, change, write both files, so the test processes never lose each other's rows.
    private void Update(Func<ResultsFile, ResultsFile> change)
    {
        System.IO.Directory.CreateDirectory(Directory);
        using var fileLock = AcquireLock();
        var file = change(ReadFile(ResultsPath));
        WriteAtomically(ResultsPath, JsonSerializer.Serialize(file, JsonOptions));
        WriteAtomically(SummaryPath, SummaryTable.Render(file.Results));
    }

    private FileStream AcquireLock()
    {
        var lockPath = Path.Combine(Directory, ".results.lock");
        for (var attempt = 0; ; attempt++)
        {
            try
            {
                return new FileStream(lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, 1, FileOptions.DeleteOnClose);
            }
            catch (IOException) when (attempt < 200)
            {
                Thread.Sleep(25);
            }
        }
    }

    private static void WriteAtomically(string path, string content)
    {
        var temp = path + ".tmp";
        File.WriteAllText(temp, content, new UTF8Encoding(false));
        File.Move(temp, path, overwrite: true);
    }

    private void InstallExitHook()
    {
        if (_exitHookInstalled)
        {
            return;
        }

        _exitHookInstalled = true;
        AppDomain.CurrentDomain.ProcessExit += (_, _) => AppendToGitHubStepSummary();
    }

    private void AppendToGitHubStepSummary()
    {
        var stepSummary = Environment.GetEnvironmentVariable("GITHUB_STEP_SUMMARY");
        if (string.IsNullOrWhiteSpace(stepSummary))
        {
            return;
        }

        lock (_gate)
        {
            File.AppendAllText(stepSummary, SummaryTable.Render(_thisProcess) + Environment.NewLine);
        }
    }

    private sealed record ResultsFile(IReadOnlyList<BudgetResult> Results, IReadOnlyList<LoadReport>? Loads = null)
    {
        public static ResultsFile Empty { get; } = new([], null);
    }
}
