namespace PerfBudgets.Server.Storage;

/// <summary>
/// Where <c>perfbudgets-server</c> takes a PostgreSQL connection string from: <c>--postgres</c> (on the command line,
/// so in every process listing: for a string without a password), a file (<c>--postgres-file</c>, readable by the
/// server's account alone), or the <c>PERFBUDGETS_POSTGRES</c> environment variable (a container's secret).
/// </summary>
internal static class PostgresConnectionString
{
    /// <summary>The environment variable a connection string is read from when neither option gives one.</summary>
    public const string EnvironmentVariable = "PERFBUDGETS_POSTGRES";

    /// <summary>
    /// The connection string from <paramref name="given"/>, else the file <paramref name="file"/> (trimmed), else the
    /// environment variable; null when none gives one. Both options at once is a mistake and throws.
    /// </summary>
    public static string? Resolve(string? given, string? file, Func<string, string?> environment)
    {
        ArgumentNullException.ThrowIfNull(environment);
        if (given is not null && file is not null)
        {
            throw new ArgumentException("Give the PostgreSQL connection string once: --postgres or --postgres-file, not both.");
        }

        if (file is not null)
        {
            var text = File.Exists(file)
                ? File.ReadAllText(file).Trim()
                : throw new ArgumentException($"--postgres-file '{Path.GetFullPath(file)}' does not exist.");
            return text.Length > 0 ? text : throw new ArgumentException($"--postgres-file '{Path.GetFullPath(file)}' is empty.");
        }

        return given ?? (environment(EnvironmentVariable) is { Length: > 0 } fromEnvironment ? fromEnvironment.Trim() : null);
    }

    /// <summary>True when <paramref name="connectionString"/> holds a password (which a process listing would show).</summary>
    public static bool HoldsPassword(string connectionString) =>
        !string.IsNullOrEmpty(new Npgsql.NpgsqlConnectionStringBuilder(connectionString).Password);
}
