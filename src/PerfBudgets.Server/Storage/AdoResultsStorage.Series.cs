using System.Data;
using System.Data.Common;
using static PerfBudgets.Server.Storage.DbCommands;

namespace PerfBudgets.Server.Storage;

// One budget's figures across runs, whole or a page at a time, with where its limit or runtime changed.
internal abstract partial class AdoResultsStorage
{
    // The columns a series point is read from (ReadSeriesAsync), in its order.
    private const string SeriesColumns = """
        r.id, r.commit_sha, r.branch, r.uploaded_utc, r.runtime, r.valgrind_version, x.kind, x.unit, x.measured, x.limit_value, x.verdict,
               x.noise, x.noise_absolute, x.measured_utc
        """;

    public async Task<IReadOnlyList<SeriesPoint>> GetSeriesAsync(string project, string budget, string? branch, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = Command(connection, null, $"""
            SELECT {SeriesColumns}
            FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id
            WHERE p.name = @project AND x.budget = @budget AND (@branch IS NULL OR r.branch = @branch)
            ORDER BY r.id
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@budget", budget, DbType.String);
        Add(command, "@branch", branch, DbType.String);
        return await ReadSeriesAsync(command, cancellationToken);
    }

    public async Task<SeriesPage> GetSeriesPageAsync(string project, string budget, string branch, int count, long? beforeRunId,
        CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        await using var connection = await OpenAsync(cancellationToken);
        // One run more than the page, the one before it, so that the page's first point knows whether the limit or the
        // runtime changed there; it is read and dropped.
        await using var command = Command(connection, null, $"""
            SELECT * FROM (
                SELECT {SeriesColumns}
                FROM results x JOIN runs r ON r.id = x.run_id JOIN projects p ON p.id = r.project_id
                WHERE p.name = @project AND x.budget = @budget AND r.branch = @branch AND (@before IS NULL OR r.id < @before)
                ORDER BY r.id DESC
                LIMIT @count
            ) page ORDER BY 1
            """);
        Add(command, "@project", project, DbType.String);
        Add(command, "@budget", budget, DbType.String);
        Add(command, "@branch", branch, DbType.String);
        Add(command, "@before", beforeRunId, DbType.Int64);
        Add(command, "@count", count + 1, DbType.Int32);
        var page = await ReadSeriesAsync(command, cancellationToken);
        return page.Count > count ? new SeriesPage(page.Skip(1).ToList(), HasOlder: true) : new SeriesPage(page, HasOlder: false);
    }

    private static async Task<List<SeriesPoint>> ReadSeriesAsync(DbCommand command, CancellationToken cancellationToken)
    {
        var series = new List<SeriesPoint>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            double? limit = reader.IsDBNull(9) ? null : reader.GetDouble(9);
            var runtime = reader.GetString(4);
            var previous = series.Count > 0 ? series[^1] : null;
            series.Add(new SeriesPoint(reader.GetInt64(0), reader.GetString(1), reader.GetString(2), StoredTime.Parse(reader.GetString(3)), runtime,
                reader.IsDBNull(5) ? null : reader.GetString(5), reader.GetString(6), reader.GetString(7), reader.IsDBNull(8) ? null : reader.GetDouble(8), limit,
                reader.GetString(10), LimitChanged: previous is not null && previous.Limit != limit,
                RuntimeChanged: previous is not null && previous.Runtime != runtime)
            {
                Noise = reader.IsDBNull(11) ? null : reader.GetDouble(11),
                NoiseAbsolute = reader.IsDBNull(12) ? null : reader.GetDouble(12),
                MeasuredUtc = reader.IsDBNull(13) ? null : StoredTime.Parse(reader.GetString(13)),
            });
        }

        return series;
    }
}
