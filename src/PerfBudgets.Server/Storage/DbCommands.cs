using System.Data;
using System.Data.Common;

namespace PerfBudgets.Server.Storage;

/// <summary>The two steps of every statement the storage runs: a command on a connection, and its parameters.</summary>
internal static class DbCommands
{
    /// <summary>A command of <paramref name="sql"/> on <paramref name="connection"/>, in <paramref name="transaction"/> where given.</summary>
    public static DbCommand Command(DbConnection connection, DbTransaction? transaction, string sql)
    {
        var command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        return command;
    }

    /// <summary>Adds parameter <paramref name="name"/> (<c>@name</c>) of <paramref name="type"/>; null is stored as SQL NULL.</summary>
    public static DbParameter Add(DbCommand command, string name, object? value, DbType type)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = name;
        parameter.DbType = type;
        parameter.Value = value ?? DBNull.Value;
        command.Parameters.Add(parameter);
        return parameter;
    }
}
