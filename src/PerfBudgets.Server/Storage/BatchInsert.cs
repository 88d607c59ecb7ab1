using System.Data;
using System.Data.Common;
using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// Inserts many rows a statement (<c>INSERT … VALUES (…), (…), …</c>) rather than one statement a row: an upload's
/// figures and commit-graph edges are written while SQLite's one write lock is held, and a round trip per row would hold
/// it (and a PostgreSQL connection) for as many round trips as the upload has rows.
/// </summary>
internal static class BatchInsert
{
    /// <summary>
    /// Rows per statement: with ten columns, 1,000 parameters, well under SQLite's 32,766 and PostgreSQL's 65,535 per
    /// statement.
    /// </summary>
    public const int RowsPerStatement = 100;

    /// <summary>
    /// Inserts <paramref name="rows"/> (one value per column of <paramref name="columns"/>; null is SQL NULL) with
    /// <paramref name="head"/> (<c>INSERT INTO t (a, b)</c>) and <paramref name="tail"/> (e.g. <c>ON CONFLICT DO NOTHING</c>);
    /// returns the number of statements executed.
    /// </summary>
    public static async Task<int> ExecuteAsync(DbConnection connection, DbTransaction transaction, string head, string tail,
        IReadOnlyList<DbType> columns, IReadOnlyList<object?[]> rows, CancellationToken cancellationToken)
    {
        var statements = 0;
        for (var start = 0; start < rows.Count; start += RowsPerStatement)
        {
            var count = Math.Min(RowsPerStatement, rows.Count - start);
            await using var command = connection.CreateCommand();
            command.Transaction = transaction;
            var sql = new StringBuilder(head).Append(" VALUES ");
            for (var row = 0; row < count; row++)
            {
                var values = rows[start + row];
                Debug.Assert(values.Length == columns.Count, "every row has a value per column");
                sql.Append(row == 0 ? "(" : ", (");
                for (var column = 0; column < columns.Count; column++)
                {
                    var name = string.Create(CultureInfo.InvariantCulture, $"@r{row}c{column}");
                    sql.Append(column == 0 ? "" : ", ").Append(name);
                    DbCommands.Add(command, name, values[column], columns[column]);
                }

                sql.Append(')');
            }

            command.CommandText = sql.Append(' ').Append(tail).ToString();
            await command.ExecuteNonQueryAsync(cancellationToken);
            statements++;
        }

        return statements;
    }
}
