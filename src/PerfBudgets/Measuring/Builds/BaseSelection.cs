using PerfBudgets.Budgets;

namespace PerfBudgets.Measuring;

/// <summary>
/// What decides the base commit (<see cref="BaseBuild"/>): the commit named on purpose, whether pairing is off, and
/// whether this is a CI run. Read from the environment once, by <see cref="BudgetGateOptions.FromEnvironment"/> or
/// <see cref="FromEnvironment"/>.
/// </summary>
/// <param name="Named">The base named by <c>PERF_BASE_COMMIT</c>, or null to choose it from the working tree.</param>
/// <param name="PairingOff">True when <c>PERF_BASE_COMMIT=none</c>: the paired budgets are off on purpose.</param>
/// <param name="IsCi">True under CI (<c>CI=true</c>): the base is never <c>HEAD</c> unless named.</param>
/// <param name="Keep">How many bases <c>artifacts/base/</c> keeps (<c>PERF_BASE_KEEP</c>).</param>
internal sealed record BaseSelection(string? Named, bool PairingOff, bool IsCi, int Keep = 3)
{
    /// <summary>The selection the environment asks for.</summary>
    public static BaseSelection FromEnvironment() => new(
        HarnessEnvironment.PairingOff ? null : HarnessEnvironment.Base, HarnessEnvironment.PairingOff, HarnessEnvironment.IsCi, HarnessEnvironment.BaseKeep);
}
