using System.Data;
using System.Data.Common;
using System.Globalization;
using System.Reflection;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// Brings a database's schema up to date on start: the numbered scripts of <c>Storage/Migrations</c>
/// (<c>NNNN_what.sql</c>, embedded), each applied once, in order, with its row in <c>schema_version</c>: on SQLite all in
/// one transaction, on PostgreSQL each in its own, so a crash mid-migration leaves the database at a version it had. A script whose SQL is
/// the same for both databases lives in <c>Migrations/</c>; one that differs has a file of the same number in
/// <c>Migrations/Sqlite</c> and in <c>Migrations/Postgres</c>.
/// </summary>
internal static class SchemaMigrator
{
    private const string Prefix = "Migrations.";

    private const string CreateVersionTable = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_utc TEXT NOT NULL)";

    // The key of the PostgreSQL advisory lock migrations hold (any constant the database's other users do not take).
    private const long PostgresMigrationLock = 0x5065_7266_4275_6467; // "PerfBudg"

    private static readonly IReadOnlyDictionary<StorageProvider, IReadOnlyList<(int Version, string Script)>> ByProvider = LoadMigrations();

    /// <summary>The version the newest migration brings a database to (the same for every provider).</summary>
    public static int LatestVersion => ByProvider[StorageProvider.Sqlite][^1].Version;

    /// <summary>Every migration of <paramref name="provider"/>, by version, oldest first.</summary>
    public static IReadOnlyList<(int Version, string Script)> Migrations(StorageProvider provider) => ByProvider[provider];

    /// <summary>Applies every migration newer than the database's version up to <paramref name="targetVersion"/>; returns how many ran.</summary>
    public static int Migrate(DbConnection connection, StorageProvider provider, int? targetVersion = null)
    {
        ArgumentNullException.ThrowIfNull(connection);
        if (provider == StorageProvider.Postgres)
        {
            // Two servers starting on one database at once: the second waits here until the first has migrated, then
            // finds nothing to do. (CREATE TABLE IF NOT EXISTS alone races on PostgreSQL's catalog.) SQLite needs no
            // lock: each migration's transaction takes the database's write lock up front.
            Execute(connection, null, $"SELECT pg_advisory_lock({PostgresMigrationLock})");
        }

        try
        {
            return MigrateLocked(connection, provider, targetVersion);
        }
        finally
        {
            if (provider == StorageProvider.Postgres)
            {
                Execute(connection, null, $"SELECT pg_advisory_unlock({PostgresMigrationLock})");
            }
        }
    }

    // SQLite: the whole migration is one transaction that takes the write lock up front (BEGIN IMMEDIATE), and the
    // version is read inside it, so a second process starting on the same new file waits, then finds every migration
    // applied (reading the version before the transaction let both apply 0001: "table projects already exists").
    // PostgreSQL: under the advisory lock, each migration in its own transaction, the version again read inside it.
    private static int MigrateLocked(DbConnection connection, StorageProvider provider, int? targetVersion)
    {
        if (provider == StorageProvider.Sqlite)
        {
            using var transaction = connection.BeginTransaction();
            Execute(connection, transaction, CreateVersionTable);
            var current = CurrentVersion(connection, transaction);
            var applied = 0;
            foreach (var (version, script) in Pending(provider, current, targetVersion))
            {
                Apply(connection, transaction, version, script);
                applied++;
            }

            transaction.Commit();
            return applied;
        }

        Execute(connection, null, CreateVersionTable);
        var count = 0;
        foreach (var (version, script) in Pending(provider, 0, targetVersion))
        {
            using var transaction = connection.BeginTransaction();
            if (version <= CurrentVersion(connection, transaction))
            {
                continue;
            }

            Apply(connection, transaction, version, script);
            transaction.Commit();
            count++;
        }

        return count;
    }

    private static IEnumerable<(int Version, string Script)> Pending(StorageProvider provider, int current, int? targetVersion) =>
        ByProvider[provider].Where(m => m.Version > current && m.Version <= (targetVersion ?? int.MaxValue));

    private static void Apply(DbConnection connection, DbTransaction transaction, int version, string script)
    {
        Execute(connection, transaction, script);
        using var record = connection.CreateCommand();
        record.Transaction = transaction;
        record.CommandText = "INSERT INTO schema_version (version, applied_utc) VALUES (@version, @applied)";
        DbCommands.Add(record, "@version", version, DbType.Int32);
        DbCommands.Add(record, "@applied", StoredTime.Now(), DbType.String);
        record.ExecuteNonQuery();
    }

    /// <summary>The newest version recorded in <c>schema_version</c>, 0 for a new database.</summary>
    public static int CurrentVersion(DbConnection connection, DbTransaction? transaction = null)
    {
        ArgumentNullException.ThrowIfNull(connection);
        using var command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = "SELECT COALESCE(MAX(version), 0) FROM schema_version";
        return Convert.ToInt32(command.ExecuteScalar(), CultureInfo.InvariantCulture);
    }

    // The scripts are constant text shipped in this assembly, never built from input.
    private static void Execute(DbConnection connection, DbTransaction? transaction, string sql)
    {
        using var command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    private static Dictionary<StorageProvider, IReadOnlyList<(int Version, string Script)>> LoadMigrations()
    {
        var assembly = Assembly.GetExecutingAssembly();
        var scripts = new Dictionary<string, SortedDictionary<int, string>>(StringComparer.Ordinal);
        foreach (var name in assembly.GetManifestResourceNames().Where(n => n.StartsWith(Prefix, StringComparison.Ordinal)))
        {
            // Migrations.{Shared|Sqlite|Postgres}.NNNN_what.sql
            var folder = name[Prefix.Length..name.IndexOf('.', Prefix.Length)];
            var version = int.Parse(name.AsSpan(Prefix.Length + folder.Length + 1, 4), CultureInfo.InvariantCulture);
            using var reader = new StreamReader(assembly.GetManifestResourceStream(name)!);
            if (!scripts.TryGetValue(folder, out var byVersion))
            {
                scripts[folder] = byVersion = [];
            }

            byVersion.Add(version, reader.ReadToEnd());
        }

        var shared = scripts.GetValueOrDefault("Shared") ?? [];
        var result = new Dictionary<StorageProvider, IReadOnlyList<(int Version, string Script)>>();
        foreach (var provider in Enum.GetValues<StorageProvider>())
        {
            var own = scripts.GetValueOrDefault(provider.ToString()) ?? [];
            if (own.Keys.Intersect(shared.Keys).FirstOrDefault() is var both and > 0)
            {
                throw new InvalidOperationException($"Schema migration {both} is both shared and {provider}'s own; keep one.");
            }

            var migrations = shared.Concat(own).Select(m => (m.Key, m.Value)).OrderBy(m => m.Key).ToList();
            for (var i = 0; i < migrations.Count; i++)
            {
                if (migrations[i].Key != i + 1)
                {
                    throw new InvalidOperationException(
                        $"{provider}'s schema migrations must be numbered 1, 2, 3 … without gaps; found {migrations[i].Key} at position {i + 1}.");
                }
            }

            result[provider] = migrations;
        }

        if (result.Values.Select(m => m.Count).Distinct().Count() != 1)
        {
            throw new InvalidOperationException("Every database must have the same schema versions: a migration that differs needs a file per database.");
        }

        return result;
    }
}
