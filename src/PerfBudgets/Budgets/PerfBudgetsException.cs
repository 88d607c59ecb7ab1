namespace PerfBudgets.Budgets;

/// <summary>
/// The base of every exception the harness throws on purpose: a broken or unmeasured budget, a bad budget or baseline
/// file, a build or tool it cannot measure with. A test framework or tool can catch this one type; the derived types
/// say which.
/// </summary>
public abstract class PerfBudgetsException : Exception
{
    /// <summary>Creates the exception.</summary>
    protected PerfBudgetsException(string message) : base(message) { }

    /// <summary>Creates the exception with the lower-level cause.</summary>
    protected PerfBudgetsException(string message, Exception? innerException) : base(message, innerException) { }
}
