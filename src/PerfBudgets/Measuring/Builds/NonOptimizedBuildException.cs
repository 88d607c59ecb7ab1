using PerfBudgets.Budgets;

namespace PerfBudgets.Measuring;

/// <summary>
/// Thrown when a budget would be measured on a non-optimized (Debug) build. The message names the assemblies and the
/// command that fixes it; nothing is measured or recorded.
/// </summary>
internal sealed class NonOptimizedBuildException : PerfBudgetsException
{
    /// <summary>Creates the exception.</summary>
    public NonOptimizedBuildException(string message) : base(message) { }

    /// <summary>Creates the exception.</summary>
    public NonOptimizedBuildException(string message, Exception innerException) : base(message, innerException) { }
}
