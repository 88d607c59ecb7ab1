using PerfBudgets.Budgets;

namespace PerfBudgets.Tool.Locust;

/// <summary>
/// Raised when Locust's CSV statistics cannot be read: a file is missing, is not CSV, lacks a column or row the
/// conversion needs, or disagrees with the other files of the same run. The message names the file and, where it
/// applies, the line.
/// </summary>
internal sealed class LocustStatsException : PerfBudgetsException
{
    /// <summary>Creates the exception.</summary>
    public LocustStatsException(string message) : base(message) { }

    /// <summary>Creates the exception with the lower-level cause.</summary>
    public LocustStatsException(string message, Exception innerException) : base(message, innerException) { }
}
