namespace PerfBudgets;

/// <summary>
/// Thrown when a measurement breaks its budget. The message is one line a reviewer can act on:
/// <c>Api.DelayAsync.ServerBytesPerRequest: 2,312 B/request &gt; budget 1,500 (+54%)</c>.
/// </summary>
public sealed class BudgetExceededException : Exception
{
    /// <summary>Creates the exception.</summary>
    public BudgetExceededException(string message) : base(message) { }

    /// <summary>Creates the exception.</summary>
    public BudgetExceededException() { }

    /// <summary>Creates the exception.</summary>
    public BudgetExceededException(string message, Exception innerException) : base(message, innerException) { }
}
