using PerfBudgets.Budgets;

namespace PerfBudgets.Measuring;

/// <summary>The base commit could not be exported or built (<see cref="BaseBuild.BuildProject"/>): its paired budgets are not measured.</summary>
public sealed class BaseBuildException : PerfBudgetsException
{
    /// <summary>Creates the exception with what failed and the end of its output.</summary>
    public BaseBuildException(string message) : base(message) { }
}
