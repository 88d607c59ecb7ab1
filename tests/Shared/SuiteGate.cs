using PerfBudgets;

namespace Shared;

/// <summary>
/// The gate every suite checks its budgets with: the one the environment asks for
/// (<see cref="BudgetGateOptions.FromEnvironment"/>), with baseline warnings shown as xunit warnings of the test that
/// raised them and printed live.
/// </summary>
public static class SuiteGate
{
    private static readonly Lazy<BudgetGate> Gate = new(() =>
        BudgetGate.Create(BudgetGateOptions.FromEnvironment() with { Warnings = new XunitWarnings() }));

    /// <summary>The suite's gate, created on first use.</summary>
    public static BudgetGate Current => Gate.Value;

    // A warning of the test (in the TRX and the test's result) and a diagnostic message, which the suites that measure
    // print live (diagnosticMessages in their xunit.runner.json), so plain `dotnet test` shows it as it happens.
    private sealed class XunitWarnings : IBudgetWarningSink
    {
        public void Warn(string line)
        {
            TestContext.Current.AddWarning(line);
            TestContext.Current.SendDiagnosticMessage($"warning: {line}");
        }
    }
}
