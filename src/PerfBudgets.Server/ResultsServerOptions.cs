namespace PerfBudgets.Server;

/// <summary>How <c>perfbudgets-server</c> runs.</summary>
internal sealed record ResultsServerOptions
{
    /// <summary>Address served by default: loopback only, so nothing is exposed until asked.</summary>
    public const string DefaultUrl = "http://127.0.0.1:5080";

    /// <summary>The SQLite file, created on first start (unless <see cref="PostgresConnectionString"/> is set).</summary>
    public string DatabasePath { get; init; } = "perfbudgets.db";

    /// <summary>A PostgreSQL connection string (<c>Host=…;Database=…;Username=…</c>); null keeps the SQLite file.</summary>
    public string? PostgresConnectionString { get; init; }

    /// <summary>The URL(s) to listen on; port 0 picks a free port.</summary>
    public string Url { get; init; } = DefaultUrl;

    /// <summary>
    /// The largest upload body accepted, in bytes: 8 MiB, about a hundred times a results.json of this repository's
    /// gate (about 60 KB), so only a wrong file or an attack reaches it.
    /// </summary>
    public long MaxUploadBytes { get; init; } = 8 * 1024 * 1024;

    /// <summary>
    /// Where the dashboard links a commit: a URL with <c>{commit}</c> in it (e.g.
    /// <c>https://github.com/org/repo/commit/{commit}</c>); null shows the hash without a link.
    /// </summary>
    public string? CommitUrlTemplate { get; init; }

    /// <summary>
    /// When true, every read (baseline, budgets, series, dashboard) needs <c>Authorization: Bearer</c> with the project's
    /// read-only token or its write token;
    /// by default reading is public, as a team's dashboard usually is.
    /// </summary>
    public bool ReadTokenRequired { get; init; }

    /// <summary>
    /// The project's budgets.json, read on start, whose noise thresholds set each timed budget's smallest change point
    /// up to its kind's default (<see cref="Changes.ShiftThresholds"/>); null takes the noise each budget's latest run
    /// recorded, else its kind's default.
    /// </summary>
    public string? BudgetsFile { get; init; }

    /// <summary>
    /// The smallest change point per timed kind (kind name → larger median ÷ smaller − 1, in budgets.json's convention)
    /// where the server's own defaults do not fit the team's machines; a kind not named keeps its default. The defaults
    /// (<see cref="Changes.ShiftThresholds.DefaultByKind"/>) are the largest moves of a median that a shared 2-core CI
    /// machine alone made between quiet and busy runs: a steadier fleet can ask for smaller steps, a noisier one for
    /// larger. Null: the defaults.
    /// </summary>
    public IReadOnlyDictionary<string, double>? ShiftDefaults { get; init; }
}
