using PerfBudgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Measuring;
using SystemUnderTest.Json;

namespace PerfGate.Tests.Cpu.Json;

public sealed class JsonCpuTests
{
    private readonly BudgetGate _gate = BudgetGate.Default;

    public static TheoryData<string, string> StrategiesAndShapes => new()
    {
        { "Bytes", "Single" },
        { "Bytes", "List9" },
        { "StackPool", "Single" },
        { "StackPool", "List9" },
        { "Recyclable", "Single" },
        { "Recyclable", "List9" },
        { "BufferWriter", "Single" },
        { "BufferWriter", "List9" },
    };

    [Theory]
    [MemberData(nameof(StrategiesAndShapes))]
    public void Json_RoundTrip_CpuCost(string strategyName, string shape)
    {
        var strategies = new JsonStrategies(new JsonPoolOptions());
        var strategy = strategies.All.Single(s => s.Name == strategyName);
        var budget = $"Json.RoundTrip.{strategyName}.{shape}.CpuCost";
        var attempts = _gate.Book.IntParameter("Cpu.Attempts");
        if (shape == "Single")
        {
            var employee = EmployeeData.Single;
            Employee? back = null;
            _gate.CheckCost(budget, () => CpuMeter.PerOperation(() => back = strategy.RoundTrip(employee, strategies.Json.Employee)),
                "serialize and deserialize one employee", attempts,
                () => CpuProfiler.PerOperation(() => back = strategy.RoundTrip(employee, strategies.Json.Employee)).ToAttribution());
            back.Should().BeEquivalentTo(employee, "the measured round trip returns an equal employee");
        }
        else
        {
            var list = EmployeeData.List(9);
            List<Employee>? back = null;
            _gate.CheckCost(budget, () => CpuMeter.PerOperation(() => back = strategy.RoundTrip(list, strategies.Json.List)),
                "serialize and deserialize the 9-employee list", attempts,
                () => CpuProfiler.PerOperation(() => back = strategy.RoundTrip(list, strategies.Json.List)).ToAttribution());
            back.Should().BeEquivalentTo(list, o => o.WithStrictOrdering(), "the measured round trip returns an equal list");
        }
    }
}
