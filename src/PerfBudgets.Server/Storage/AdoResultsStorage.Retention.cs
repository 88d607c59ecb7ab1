using System.Data;
using System.Data.Common;
using System.Globalization;
using System.Text;

using static PerfBudgets.Server.Storage.DbCommands;

namespace PerfBudgets.Server.Storage;

internal abstract partial class AdoResultsStorage
{
    // Runs deleted per transaction: SQLite's one write lock is let go between batches, so uploads are not held up for the
    // whole pruning of a long history.
    private const int RunsDeletedPerTransaction = 500;

    // Every project's runs uploaded before uploadedBefore, and those beyond the newest keepPerBranch of their branch;
    // each branch's newest run is always kept, so that a branch's latest figures and a baseline of it stay.
    public async Task<int> PruneAsync(DateTimeOffset? uploadedBefore, int? keepPerBranch, CancellationToken cancellationToken)
    {
        if (keepPerBranch is <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(keepPerBranch), keepPerBranch, "Keep at least one run per branch.");
        }

        var doomed = new List<long>();
        await using (var connection = await OpenAsync(cancellationToken))
        await using (var command = Command(connection, null, """
            SELECT id FROM (
                SELECT r.id, r.uploaded_utc, ROW_NUMBER() OVER (PARTITION BY r.project_id, r.branch ORDER BY r.id DESC) AS newest FROM runs r
            ) ranked
            WHERE newest > 1 AND ((@keep IS NOT NULL AND newest > @keep) OR (@before IS NOT NULL AND uploaded_utc < @before))
            ORDER BY id
            """))
        {
            Add(command, "@keep", keepPerBranch, DbType.Int32);
            Add(command, "@before", uploadedBefore is { } before ? StoredTime.Format(before) : null, DbType.String);
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                doomed.Add(reader.GetInt64(0));
            }
        }

        for (var start = 0; start < doomed.Count; start += RunsDeletedPerTransaction)
        {
            var batch = doomed.GetRange(start, Math.Min(RunsDeletedPerTransaction, doomed.Count - start));
            await WriteAsync(async (connection, transaction) =>
            {
                foreach (var table in new[] { "results WHERE run_id", "run_parents WHERE run_id", "runs WHERE id" })
                {
                    await using var delete = Command(connection, transaction, "");
                    var ids = new StringBuilder();
                    for (var i = 0; i < batch.Count; i++)
                    {
                        var name = string.Create(CultureInfo.InvariantCulture, $"@id{i}");
                        ids.Append(i == 0 ? "" : ", ").Append(name);
                        Add(delete, name, batch[i], DbType.Int64);
                    }

                    // The table names are the constants above; the ids are parameters.
                    delete.CommandText = $"DELETE FROM {table} IN ({ids})";
                    await delete.ExecuteNonQueryAsync(cancellationToken);
                }

                return 0L;
            }, cancellationToken);
        }

        return doomed.Count;
    }
}
