using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.Json;

public sealed class JsonCountTests(CountedRuns runs)
{
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

    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [MemberData(nameof(StrategiesAndShapes))]
    public Task Json_RoundTrip_Instructions(string strategy, string shape) =>
        CountedCheck.InProcessAsync(runs, $"Json.RoundTrip.{strategy}.{shape}", $"Json.RoundTrip.{strategy}.{shape}.Instructions",
            shape == "Single" ? "serialize and deserialize one employee" : "serialize and deserialize the 9-employee list");
}
