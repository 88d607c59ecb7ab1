using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace PerfBudgets.Gating;

/// <summary>The figure a counted budget gates, taken from what the instruction meter counted: its kind says which.</summary>
internal static class CountedFigure
{
    /// <summary>Instructions, system calls, or estimated cycles per operation, as <paramref name="budget"/>'s kind asks.</summary>
    /// <exception cref="ArgumentException">A cycles budget, and the measurement ran without the cache simulation.</exception>
    public static double Of(Budget budget, InstructionMeasurement measurement) =>
        budget.Kind == BudgetKind.SyscallsMax ? measurement.SystemCallsPerOperation
        : budget.Kind == BudgetKind.CyclesMax ? measurement.EstimatedCyclesPerOperation
            ?? throw new ArgumentException($"{budget.Name} is a {budget.Kind} budget, and the measurement has no estimated cycles: count it with the cache simulation on (InstructionMeter.RunProcess(..., cacheSimulation: true)).", nameof(measurement))
        : measurement.InstructionsPerOperation;
}
