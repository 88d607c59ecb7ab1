using PerfBudgets.Budgets;

namespace PerfBudgets.Tool;

/// <summary>
/// Raised for bad input to a <c>perfbudgets</c> command (a missing file, a URL or a number out of range); the command
/// prints its message as one line and exits with 1 (<see cref="CommandAction"/>).
/// </summary>
internal sealed class ToolInputException : PerfBudgetsException
{
    public ToolInputException(string message) : base(message) { }

    public ToolInputException(string message, Exception innerException) : base(message, innerException) { }
}
