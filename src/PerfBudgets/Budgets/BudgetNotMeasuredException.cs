namespace PerfBudgets.Budgets;

/// <summary>
/// Thrown when a budget could not be measured on this machine (<c>BudgetGate.NotMeasured</c>): the message
/// says which and why, e.g. <c>HPack.Decode.TypicalRequest.Instructions: not measured (valgrind not found: apt-get
/// install valgrind)</c>. A test framework should report it as skipped, never as passed (xunit v3:
/// <c>[Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]</c>).
/// </summary>
public sealed class BudgetNotMeasuredException : PerfBudgetsException
{
    /// <summary>Creates the exception.</summary>
    public BudgetNotMeasuredException(string message) : base(message) { }

    /// <summary>Creates the exception.</summary>
    public BudgetNotMeasuredException(string message, Exception innerException) : base(message, innerException) { }
}
