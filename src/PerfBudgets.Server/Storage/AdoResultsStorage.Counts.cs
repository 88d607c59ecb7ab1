using System.Data;
using System.Data.Common;
using static PerfBudgets.Server.Storage.DbCommands;

namespace PerfBudgets.Server.Storage;

// The counted runs a project stored for reuse: opaque archives by key, the least recently used beyond a number or a
// number of bytes deleted.
internal abstract partial class AdoResultsStorage
{
    public async Task<bool> PutCountAsync(string project, string key, byte[] archive, int keepPerProject, long keepBytesPerProject, byte[]? writeTokenSha256, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(archive);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(keepPerProject);
        ArgumentOutOfRangeException.ThrowIfLessThan(keepBytesPerProject, archive.LongLength);
        return await WriteAsync(async (connection, transaction) =>
        {
            var now = StoredTime.Now();
            // A key stored before keeps its archive (the same inputs counted the same) and is only marked used.
            await using (var touch = Command(connection, transaction, """
                UPDATE stored_counts SET used_utc = @now
                WHERE project_id = (SELECT id FROM projects WHERE name = @project AND (@token IS NULL OR token_sha256 = @token)) AND count_key = @key
                """))
            {
                Add(touch, "@now", now, DbType.String);
                Add(touch, "@project", project, DbType.String);
                Add(touch, "@token", writeTokenSha256, DbType.Binary);
                Add(touch, "@key", key, DbType.String);
                if (await touch.ExecuteNonQueryAsync(cancellationToken) > 0)
                {
                    return false;
                }
            }

            await using (var insert = Command(connection, transaction, """
                INSERT INTO stored_counts (project_id, count_key, archive, stored_utc, used_utc)
                SELECT id, @key, @archive, @now, @now FROM projects WHERE name = @project AND (@token IS NULL OR token_sha256 = @token)
                """))
            {
                Add(insert, "@key", key, DbType.String);
                Add(insert, "@archive", archive, DbType.Binary);
                Add(insert, "@now", now, DbType.String);
                Add(insert, "@project", project, DbType.String);
                Add(insert, "@token", writeTokenSha256, DbType.Binary);
                if (await insert.ExecuteNonQueryAsync(cancellationToken) == 0)
                {
                    // The token is checked again here, not only before the body arrived, as a run's upload does.
                    throw writeTokenSha256 is null
                        ? new ServerInputException(404, $"There is no project '{project}'.")
                        : new ServerInputException(403, $"Project '{project}''s write token was revoked or replaced while the stored count arrived; nothing was stored.");
                }
            }

            // Most recently used first, the one just stored among them: an entry goes once it is past the number kept or
            // once the entries before it and it hold more bytes than the project may keep.
            await using (var prune = Command(connection, transaction, """
                DELETE FROM stored_counts WHERE project_id = (SELECT id FROM projects WHERE name = @project) AND count_key IN (
                    SELECT count_key FROM (
                        SELECT count_key,
                            ROW_NUMBER() OVER (ORDER BY used_utc DESC, count_key) AS position,
                            SUM(CAST(LENGTH(archive) AS BIGINT)) OVER (ORDER BY used_utc DESC, count_key ROWS UNBOUNDED PRECEDING) AS bytes
                        FROM stored_counts WHERE project_id = (SELECT id FROM projects WHERE name = @project)) AS ranked
                    WHERE position > @keep OR bytes > @keepBytes)
                """))
            {
                Add(prune, "@project", project, DbType.String);
                Add(prune, "@keep", keepPerProject, DbType.Int32);
                Add(prune, "@keepBytes", keepBytesPerProject, DbType.Int64);
                await prune.ExecuteNonQueryAsync(cancellationToken);
            }

            return true;
        }, cancellationToken);
    }

    // Keys go in batches of parameters well under SQLite's and PostgreSQL's limits on one statement's.
    private const int KeysPerStatement = 500;

    public async Task<int> MarkCountsUsedAsync(string project, IReadOnlyList<string> keys, byte[]? writeTokenSha256, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(keys);
        return await WriteAsync(async (connection, transaction) =>
        {
            await using (var exists = Command(connection, transaction, "SELECT COUNT(*) FROM projects WHERE name = @project AND (@token IS NULL OR token_sha256 = @token)"))
            {
                Add(exists, "@project", project, DbType.String);
                Add(exists, "@token", writeTokenSha256, DbType.Binary);
                if (Convert.ToInt64(await exists.ExecuteScalarAsync(cancellationToken), System.Globalization.CultureInfo.InvariantCulture) == 0)
                {
                    throw writeTokenSha256 is null
                        ? new ServerInputException(404, $"There is no project '{project}'.")
                        : new ServerInputException(403, $"Project '{project}''s write token was revoked or replaced; nothing was marked used.");
                }
            }

            var now = StoredTime.Now();
            var marked = 0;
            foreach (var batch in keys.Chunk(KeysPerStatement))
            {
                var names = batch.Select((_, i) => $"@k{i}").ToList();
                await using var touch = Command(connection, transaction, $"""
                    UPDATE stored_counts SET used_utc = @now
                    WHERE project_id = (SELECT id FROM projects WHERE name = @project) AND count_key IN ({string.Join(", ", names)})
                    """);
                Add(touch, "@now", now, DbType.String);
                Add(touch, "@project", project, DbType.String);
                for (var i = 0; i < batch.Length; i++)
                {
                    Add(touch, names[i], batch[i], DbType.String);
                }

                marked += await touch.ExecuteNonQueryAsync(cancellationToken);
            }

            return marked;
        }, cancellationToken);
    }

    // Fetched is used: what pull requests keep fetching outlives what nobody asks for. One statement finds the row,
    // marks it used and answers its archive.
    public Task<byte[]?> GetCountAsync(string project, string key, CancellationToken cancellationToken) =>
        WriteAsync(async (connection, transaction) =>
        {
            await using var command = Command(connection, transaction, """
                UPDATE stored_counts SET used_utc = @now WHERE project_id = (SELECT id FROM projects WHERE name = @project) AND count_key = @key
                RETURNING archive
                """);
            Add(command, "@now", StoredTime.Now(), DbType.String);
            Add(command, "@project", project, DbType.String);
            Add(command, "@key", key, DbType.String);
            return await command.ExecuteScalarAsync(cancellationToken) as byte[];
        }, cancellationToken);

    public async Task<IReadOnlyList<StoredCountEntry>> ListCountsAsync(string project, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, """
            SELECT count_key, CAST(LENGTH(archive) AS BIGINT), stored_utc, used_utc FROM stored_counts
            WHERE project_id = (SELECT id FROM projects WHERE name = @project) ORDER BY used_utc DESC, count_key
            """);
        Add(command, "@project", project, DbType.String);
        var entries = new List<StoredCountEntry>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            entries.Add(new StoredCountEntry(reader.GetString(0), reader.GetInt64(1), StoredTime.Parse(reader.GetString(2)), StoredTime.Parse(reader.GetString(3))));
        }

        return entries;
    }
}
