using PerfBudgets;
using PerfBudgets.Measuring;
using SystemUnderTest.Sockets.Echo;

namespace PerfGate.Tests.Cpu.Sockets;

[Collection(ServerProcessCollection.Name)]
public sealed class EchoServerCpuTests(ServerProcess server)
{
    [Fact]
    public void Sockets_Echo_ServerCpuCost()
    {
        var gate = BudgetGate.Default;
        var echo = server.App.EchoEndPoint ?? throw new InvalidOperationException("The server was started without its echo service.");

        // 1,000-byte frames, each sent and checked byte for byte by a blocking client, several connections at once.
        using var clients = new ConcurrentClients<EchoClient>(ServerProcess.Connections(gate),
            () => EchoClient.Connect(echo, 1_000, TimeSpan.FromSeconds(10)), client => client.Echo());

        ServerProcess.CheckServerCost(gate, "Sockets.Echo.ServerCpuCost", server, clients.Send, $"1,000-byte frames on {clients.Clients.Count} connections, server in its own process");

    }
}
