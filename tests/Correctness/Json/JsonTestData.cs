using SystemUnderTest.Json;

namespace Correctness.Json;

internal static class JsonTestData
{
    public static readonly string[] StrategyNames = ["Bytes", "StackPool", "Recyclable", "BufferWriter"];

    // Shapes: the single employee, the 9-employee list (the endpoint's and budgets' list), and the whole data set.
    public static readonly int[] ListCounts = [1, 9, EmployeeData.MaxCount];

    public static TheoryData<string, int> StrategiesAndCounts()
    {
        var data = new TheoryData<string, int>();
        foreach (var name in StrategyNames)
        {
            foreach (var count in ListCounts)
            {
                data.Add(name, count);
            }
        }

        return data;
    }

    public static IJsonRoundTripStrategy Strategy(JsonStrategies strategies, string name) =>
        strategies.All.Single(s => s.Name == name);
}
