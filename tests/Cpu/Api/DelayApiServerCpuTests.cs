using PerfBudgets;
using PerfBudgets.Load;
using PerfBudgets.Measuring;

namespace PerfGate.Tests.Cpu.Api;

[Collection(ServerProcessCollection.Name)]
public sealed class DelayApiServerCpuTests(ServerProcess server)
{
    [Fact]
    public void Api_DelayAsync_ServerCpuCost()
    {
        var gate = BudgetGate.Default;
        using var clients = new ConcurrentClients<HttpKeepAliveProbe>(ServerProcess.Connections(gate),
            () => new HttpKeepAliveProbe(server.App.EndPoint, "/api/delay/async?ms=0"),
            probe => ServerProcess.ExpectStatus(probe.Send(), 200));

        // Keep-alive requests from blocking clients on their own threads; the server's CPU clock over each batch, per request.
        ServerProcess.CheckServerCost(gate, "Api.DelayAsync.ServerCpuCost", server, clients.Send, $"GET /api/delay/async?ms=0 on {clients.Clients.Count} keep-alive connections, server in its own process");

        System.Text.Encoding.ASCII.GetString(clients.Clients[0].LastBody).Should().Be("Hello World,0");
    }
}
