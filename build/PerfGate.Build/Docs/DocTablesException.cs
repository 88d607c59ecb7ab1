using PerfBudgets.Budgets;

namespace PerfGate.Build.Docs;

/// <summary>
/// A table marker in a markdown file that <see cref="DocTables"/> cannot fill: malformed, unclosed, naming an unknown
/// column, or matching no budget. The message names the file and line.
/// </summary>
internal sealed class DocTablesException : PerfBudgetsException
{
    /// <summary>Creates the exception with a message naming the file, the line and what was wrong.</summary>
    public DocTablesException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with a message and the lower-level cause.</summary>
    public DocTablesException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
