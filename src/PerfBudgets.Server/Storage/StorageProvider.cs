namespace PerfBudgets.Server.Storage;

/// <summary>The databases the results server can keep its runs in; each has its own migrations where SQL differs.</summary>
internal enum StorageProvider
{
    /// <summary>One SQLite file (Microsoft.Data.Sqlite), the default: nothing to install.</summary>
    Sqlite,

    /// <summary>A PostgreSQL database (Npgsql), for a team's server.</summary>
    Postgres,
}
