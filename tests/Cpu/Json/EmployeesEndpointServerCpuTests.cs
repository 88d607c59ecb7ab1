using System.Text.Json;
using PerfBudgets;
using PerfBudgets.Load;
using PerfBudgets.Measuring;
using SystemUnderTest.Json;

namespace PerfGate.Tests.Cpu.Json;

[Collection(ServerProcessCollection.Name)]
public sealed class EmployeesEndpointServerCpuTests(ServerProcess server)
{
    [Fact]
    public void Json_Endpoint_Employees9_ServerCpuCost()
    {
        var gate = BudgetGate.Default;
        var expected = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        using var clients = new ConcurrentClients<HttpKeepAliveProbe>(ServerProcess.Connections(gate),
            () => new HttpKeepAliveProbe(server.App.EndPoint, "/api/employees?count=9"),
            probe => ServerProcess.ExpectStatus(probe.Send(), 200));

        ServerProcess.CheckServerCost(gate, "Json.Endpoint.Employees9.ServerCpuCost", server, clients.Send, $"GET /api/employees?count=9 on {clients.Clients.Count} keep-alive connections, server in its own process");

        clients.Clients[0].LastBody.SequenceEqual(expected).Should().BeTrue("the endpoint answers the 9-employee list");
    }

    [Fact]
    public void Json_Endpoint_Echo9_ServerCpuCost()
    {
        var gate = BudgetGate.Default;
        var body = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        using var clients = new ConcurrentClients<HttpKeepAliveProbe>(ServerProcess.Connections(gate),
            () => new HttpKeepAliveProbe(server.App.EndPoint, "POST", "/api/employees/echo", "application/json", body),
            probe => ServerProcess.ExpectStatus(probe.Send(), 200));

        ServerProcess.CheckServerCost(gate, "Json.Endpoint.Echo9.ServerCpuCost", server, clients.Send, $"POST /api/employees/echo of {body.Length:N0} bytes on {clients.Clients.Count} keep-alive connections, server in its own process");

        clients.Clients[0].LastBody.SequenceEqual(body).Should().BeTrue("the endpoint echoes the 9-employee list as it was sent");
    }
}
