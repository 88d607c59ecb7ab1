using PerfBudgets;
using PerfBudgets.Load;

namespace PerfGate.Tests.Load;

/// <summary>The phases every open-model budget scenario runs, from budgets.json (Load.Open.*).</summary>
internal static class OpenModelPhases
{
    /// <summary>A warm-up at the target rate (JIT, connections, pool growth), then the measured phase at the same rate.</summary>
    public static LoadSimulation[] AtRate(BudgetGate gate, double requestsPerSecond) =>
    [
        LoadSimulation.Inject(requestsPerSecond, TimeSpan.FromSeconds(gate.Book.Parameter("Load.Open.WarmUpSeconds"))).AsWarmUp(),
        LoadSimulation.Inject(requestsPerSecond, TimeSpan.FromSeconds(gate.Book.Parameter("Load.Open.DurationSeconds"))),
    ];
}
