namespace PerfBudgets.Budgets;

/// <summary>
/// Raised when <c>budgets.json</c> cannot be found or read, is malformed, or does not define what a test asks for.
/// A missing budget is always an error: nothing falls back to a default limit.
/// </summary>
public sealed class BudgetFileException : PerfBudgetsException
{
    /// <summary>Creates the exception.</summary>
    public BudgetFileException(string message) : base(message) { }

    /// <summary>Creates the exception with the lower-level cause.</summary>
    public BudgetFileException(string message, Exception innerException) : base(message, innerException) { }
}
