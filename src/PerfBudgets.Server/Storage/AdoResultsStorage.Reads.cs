using System.Data;
using System.Data.Common;
using static PerfBudgets.Server.Storage.DbCommands;

namespace PerfBudgets.Server.Storage;

// A commit's results.json (the baseline), a branch's latest figures, and the counts a cache or a test reads.
internal abstract partial class AdoResultsStorage
{
    public async Task<string?> RunResultsAsync(string project, string commit, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT r.results_json FROM runs r JOIN projects p ON p.id = r.project_id
            WHERE p.name = @project AND r.commit_sha = @commit
            ORDER BY r.id DESC LIMIT 1
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@commit", commit, DbType.String);
        return await command.ExecuteScalarAsync(cancellationToken) as string;
    }

    public async Task<IReadOnlyList<BudgetLatest>> GetLatestAsync(string project, string branch, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT x.budget, x.kind, x.unit, x.measured, x.limit_value, x.verdict, r.id, r.commit_sha, r.branch, r.uploaded_utc,
                   x.noise, x.noise_absolute
            FROM results x JOIN runs r ON r.id = x.run_id
            WHERE r.id = (SELECT MAX(l.id) FROM runs l JOIN projects p ON p.id = l.project_id WHERE p.name = @project AND l.branch = @branch)
            ORDER BY x.budget
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@branch", branch, DbType.String);
        var latest = new List<BudgetLatest>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            latest.Add(new BudgetLatest(reader.GetString(0), reader.GetString(1), reader.GetString(2), reader.IsDBNull(3) ? null : reader.GetDouble(3),
                reader.IsDBNull(4) ? null : reader.GetDouble(4), reader.GetString(5), reader.GetInt64(6), reader.GetString(7),
                reader.GetString(8), StoredTime.Parse(reader.GetString(9)))
            {
                Noise = reader.IsDBNull(10) ? null : reader.GetDouble(10),
                NoiseAbsolute = reader.IsDBNull(11) ? null : reader.GetDouble(11),
            });
        }

        return latest;
    }

    public async Task<(long NewestRunId, long Runs)> RunsVersionAsync(string project, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT COALESCE(MAX(r.id), 0), COUNT(r.id) FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.name = @project
            """);
        Add(command, "@project", project, DbType.String);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        await reader.ReadAsync(cancellationToken);
        return (reader.GetInt64(0), reader.GetInt64(1));
    }

    public async Task<(long Runs, long Results)> CountAsync(string project, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT (SELECT COUNT(*) FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.name = @project),
                   (SELECT COUNT(*) FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id WHERE p.name = @project)
            """);
        Add(command, "@project", project, DbType.String);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        await reader.ReadAsync(cancellationToken);
        return (reader.GetInt64(0), reader.GetInt64(1));
    }
}
