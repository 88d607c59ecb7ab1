using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting.Storage;

/// <summary>
/// Raised when the baseline named by <c>PERF_BASELINE</c> cannot be found, read or parsed: a comparison that was asked
/// for is never skipped silently.
/// </summary>
public sealed class BaselineFileException : PerfBudgetsException
{
    /// <summary>Creates the exception.</summary>
    public BaselineFileException(string message) : base(message) { }

    /// <summary>Creates the exception with the lower-level cause.</summary>
    public BaselineFileException(string message, Exception innerException) : base(message, innerException) { }
}
