using System.Data;
using System.Data.Common;
using static PerfBudgets.Server.Storage.DbCommands;

namespace PerfBudgets.Server.Storage;

// Projects and their tokens (kept only as their SHA-256).
internal abstract partial class AdoResultsStorage
{
    public async Task CreateProjectAsync(string name, byte[] tokenSha256, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(tokenSha256);
        try
        {
            await WriteAsync(async (connection, transaction) =>
            {
                await using var command = Command(connection, transaction, "INSERT INTO projects (name, token_sha256, created_utc) VALUES (@name, @hash, @created)");
                Add(command, "@name", name, DbType.String);
                Add(command, "@hash", tokenSha256, DbType.Binary);
                Add(command, "@created", StoredTime.Now(), DbType.String);
                await command.ExecuteNonQueryAsync(cancellationToken);
                return 0L;
            }, cancellationToken);
        }
        catch (DbException e) when (IsUniqueViolation(e))
        {
            throw new ServerInputException(409, $"Project '{name}' exists already.", e);
        }
    }

    public async Task<byte[]?> TokenHashAsync(string name, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, "SELECT token_sha256 FROM projects WHERE name = @name");
        Add(command, "@name", name, DbType.String);
        return await command.ExecuteScalarAsync(cancellationToken) as byte[];
    }

    public Task SetWriteTokenAsync(string name, byte[] tokenSha256, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(tokenSha256);
        return SetTokenAsync("UPDATE projects SET token_sha256 = @hash WHERE name = @name", name, tokenSha256, cancellationToken);
    }

    public Task SetReadTokenAsync(string name, byte[]? tokenSha256, CancellationToken cancellationToken) =>
        SetTokenAsync("UPDATE projects SET read_token_sha256 = @hash WHERE name = @name", name, tokenSha256, cancellationToken);

    // The statements are the two constants above, never built from input.
    private async Task SetTokenAsync(string update, string name, byte[]? tokenSha256, CancellationToken cancellationToken)
    {
        var updated = await WriteAsync(async (connection, transaction) =>
        {
            await using var command = Command(connection, transaction, update);
            Add(command, "@name", name, DbType.String);
            Add(command, "@hash", tokenSha256, DbType.Binary);
            return (long)await command.ExecuteNonQueryAsync(cancellationToken);
        }, cancellationToken);
        if (updated == 0)
        {
            throw new ServerInputException(404, $"There is no project '{name}'.");
        }
    }

    public async Task<byte[]?> ReadTokenHashAsync(string name, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, "SELECT read_token_sha256 FROM projects WHERE name = @name");
        Add(command, "@name", name, DbType.String);
        return await command.ExecuteScalarAsync(cancellationToken) as byte[];
    }

    public async Task<IReadOnlyList<ProjectSummary>> ListProjectsAsync(CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT p.name, COUNT(r.id), MAX(r.uploaded_utc) FROM projects p LEFT JOIN runs r ON r.project_id = p.id
            GROUP BY p.name ORDER BY p.name
            """);
        var projects = new List<ProjectSummary>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            projects.Add(new ProjectSummary(reader.GetString(0), reader.GetInt64(1), reader.IsDBNull(2) ? null : StoredTime.Parse(reader.GetString(2))));
        }

        return projects;
    }
}
