using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.Growth;

/// <summary>
/// How the cost of an operation grows with its input, counted at two sizes (docs/growth.md): the growth exponent
/// between them (growth-exponent-max), and the cost per item at the large size (instructions-max). A budget measured
/// at one small size cannot see work that grows faster than the input.
/// </summary>
public sealed class GrowthCountTests(CountedRuns runs)
{
    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Json_List_Growth() =>
        GrowthCheck.ExponentAsync(runs, GrowthCheck.Where.InProcess, "Json.List.Growth", ("Json.List.RoundTrip9", 9), ("Json.List.RoundTrip1000", 1_000), "employee",
            "the employee list written as GET /api/employees writes it and read back, 9 and 1,000 employees");

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Json_Endpoint_Employees_Growth() =>
        GrowthCheck.ExponentAsync(runs, GrowthCheck.Where.Server, "Json.Endpoint.Employees.Growth", ("Json.Endpoint.Employees9", 9), ("Json.Endpoint.Employees1000", 1_000), "employee",
            "GET /api/employees?count=9 and ?count=1000, server under Callgrind, per request");

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task HPack_Block_Growth() =>
        GrowthCheck.ExponentAsync(runs, GrowthCheck.Where.InProcess, "HPack.Block.Growth", ("HPack.Block.RoundTrip10", 10), ("HPack.Block.RoundTrip100", 100), "header",
            "a header block of new headers encoded and decoded on a new connection's encoder and decoder, 10 and 100 headers");

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Sockets_Echo_Growth() =>
        GrowthCheck.ExponentAsync(runs, GrowthCheck.Where.Server, "Sockets.Echo.Growth", ("Sockets.Echo.Frame100", 100), ("Sockets.Echo.Frame64K", 65_536), "byte",
            "echo frames of 100 B and 64 KiB, echo service under Callgrind, per frame");

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Json_List1000_InstructionsPerEmployee() =>
        GrowthCheck.PerItemAsync(runs, GrowthCheck.Where.InProcess, "Json.List1000.InstructionsPerEmployee", "Json.List.RoundTrip1000", 1_000,
            "the 1,000-employee list written as GET /api/employees writes it and read back, per employee");

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task Json_Endpoint_Employees1000_ServerInstructionsPerEmployee() =>
        GrowthCheck.PerItemAsync(runs, GrowthCheck.Where.Server, "Json.Endpoint.Employees1000.ServerInstructionsPerEmployee", "Json.Endpoint.Employees1000", 1_000,
            "GET /api/employees?count=1000, server under Callgrind, per employee");

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task HPack_Block100_InstructionsPerHeader() =>
        GrowthCheck.PerItemAsync(runs, GrowthCheck.Where.InProcess, "HPack.Block100.InstructionsPerHeader", "HPack.Block.RoundTrip100", 100,
            "a block of 100 new headers encoded and decoded, per header");
}
