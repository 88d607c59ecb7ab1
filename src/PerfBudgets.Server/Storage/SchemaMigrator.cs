using System.Globalization;
using System.Reflection;
using Microsoft.Data.Sqlite;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// Brings a database's schema up to date on start: the numbered scripts of <c>Storage/Migrations</c>
/// (<c>NNNN_what.sql</c>, embedded), each applied once, in order, in its own transaction with its row in
/// <c>schema_version</c>, so a crash mid-migration leaves the database at the previous version.
/// </summary>
internal static class SchemaMigrator
{
    private const string Prefix = "Migrations.";

    /// <summary>Every migration, by version, oldest first.</summary>
    public static IReadOnlyList<(int Version, string Script)> Migrations { get; } = LoadMigrations();

    /// <summary>The version the newest migration brings a database to.</summary>
    public static int LatestVersion => Migrations[^1].Version;

    /// <summary>Applies every migration newer than the database's version up to <paramref name="targetVersion"/>; returns how many ran.</summary>
    public static int Migrate(SqliteConnection connection, int? targetVersion = null)
    {
        ArgumentNullException.ThrowIfNull(connection);
        Execute(connection, null, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_utc TEXT NOT NULL)");
        var current = CurrentVersion(connection);
        var applied = 0;
        foreach (var (version, script) in Migrations)
        {
            if (version <= current || version > (targetVersion ?? int.MaxValue))
            {
                continue;
            }

            using var transaction = connection.BeginTransaction();
            Execute(connection, transaction, script);
            using (var record = connection.CreateCommand())
            {
                record.Transaction = transaction;
                record.CommandText = "INSERT INTO schema_version (version, applied_utc) VALUES ($version, $applied)";
                record.Parameters.AddWithValue("$version", version);
                record.Parameters.AddWithValue("$applied", DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture));
                record.ExecuteNonQuery();
            }

            transaction.Commit();
            applied++;
        }

        return applied;
    }

    /// <summary>The newest version recorded in <c>schema_version</c>, 0 for a new database.</summary>
    public static int CurrentVersion(SqliteConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        using var command = connection.CreateCommand();
        command.CommandText = "SELECT COALESCE(MAX(version), 0) FROM schema_version";
        return Convert.ToInt32(command.ExecuteScalar(), CultureInfo.InvariantCulture);
    }

    // The scripts are constant text shipped in this assembly, never built from input.
    private static void Execute(SqliteConnection connection, SqliteTransaction? transaction, string sql)
    {
        using var command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    private static List<(int Version, string Script)> LoadMigrations()
    {
        var assembly = Assembly.GetExecutingAssembly();
        var migrations = new List<(int Version, string Script)>();
        foreach (var name in assembly.GetManifestResourceNames().Where(n => n.StartsWith(Prefix, StringComparison.Ordinal)))
        {
            var version = int.Parse(name.AsSpan(Prefix.Length, 4), CultureInfo.InvariantCulture);
            using var reader = new StreamReader(assembly.GetManifestResourceStream(name)!);
            migrations.Add((version, reader.ReadToEnd()));
        }

        migrations.Sort((a, b) => a.Version.CompareTo(b.Version));
        for (var i = 0; i < migrations.Count; i++)
        {
            if (migrations[i].Version != i + 1)
            {
                throw new InvalidOperationException($"Schema migrations must be numbered 1, 2, 3 … without gaps; found {migrations[i].Version} at position {i + 1}.");
            }
        }

        return migrations;
    }
}
