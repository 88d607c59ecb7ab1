using PerfBudgets.Budgets;

namespace PerfBudgets.Measuring;

/// <summary>
/// Thrown when the instruction meter cannot measure: Valgrind failed, the workload exited with an error, or a counted
/// region is missing from its profile. Not a broken budget: the run says why it has no figure.
/// </summary>
public sealed class InstructionMeterException : PerfBudgetsException
{
    /// <summary>Creates the exception.</summary>
    public InstructionMeterException(string message) : base(message) { }

    /// <summary>Creates the exception.</summary>
    public InstructionMeterException(string message, Exception innerException) : base(message, innerException) { }
}
