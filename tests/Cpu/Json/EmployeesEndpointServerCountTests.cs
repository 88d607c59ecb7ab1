using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.Json;

public sealed class EmployeesEndpointServerCountTests(CountedRuns runs)
{
    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [InlineData("Json.Endpoint.Employees9.ServerInstructions")]
    [InlineData("Json.Endpoint.Employees9.ServerSyscalls")]
    public Task Json_Endpoint_Employees9_Counts(string budget) =>
        CountedCheck.ServerAsync(runs, "Json.Endpoint.Employees9", budget, "GET /api/employees?count=9, one keep-alive connection, server under Callgrind, per request");

    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [InlineData("Json.Endpoint.Echo9.ServerInstructions")]
    [InlineData("Json.Endpoint.Echo9.ServerSyscalls")]
    public Task Json_Endpoint_Echo9_Counts(string budget) =>
        CountedCheck.ServerAsync(runs, "Json.Endpoint.Echo9", budget, "POST /api/employees/echo of the 9-employee list, one keep-alive connection, server under Callgrind, per request");
}
