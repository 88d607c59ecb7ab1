using PerfBudgets.Budgets;

namespace PerfBudgets.Processes;

/// <summary>A child process could not be started, did not answer within its deadline, or answered out of turn; the message names it and quotes its standard error.</summary>
internal sealed class ChildProcessException : PerfBudgetsException
{
    /// <summary>Creates the exception.</summary>
    public ChildProcessException(string message) : base(message) { }

    /// <summary>Creates the exception.</summary>
    public ChildProcessException(string message, Exception innerException) : base(message, innerException) { }
}
