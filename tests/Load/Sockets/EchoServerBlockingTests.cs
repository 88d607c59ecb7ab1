using SystemUnderTest.Sockets.Echo;
using PerfBudgets;
using PerfBudgets.Budgets;

namespace Load.Sockets;

/// <summary>
/// The echo service must never hold a pool thread in a wait: blocked time and lock contentions per echoed frame, on
/// the fixed-pool server's echo service (<see cref="BlockingCheck"/>).
/// </summary>
public sealed class EchoServerBlockingTests(FixedPoolServer server, ITestOutputHelper output)
{
    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Sockets_Echo_never_blocks_a_pool_thread()
    {
        var ct = TestContext.Current.CancellationToken;
        var app = await BlockingCheck.ServerAsync(server, _gate, "Sockets.Echo", "frame");
        var copies = _gate.Book.IntParameter("Load.Blocking.Copies");
        var clients = new EchoClient[copies];
        try
        {
            for (var i = 0; i < copies; i++)
            {
                clients[i] = await EchoClient.ConnectAsync(app.EchoEndPoint!, 1_000, ct);
            }

            // Every echo is checked byte for byte by the client; a connection that failed once is not reused.
            var broken = new bool[copies];
            await BlockingCheck.CheckAsync(_gate, output, app, "Sockets.Echo", "frame", async (copy, token) =>
            {
                if (broken[copy])
                {
                    await Task.Delay(10, token);
                    return false;
                }

                try
                {
                    await clients[copy].EchoAsync(token);
                    return true;
                }
                catch
                {
                    broken[copy] = true;
                    throw;
                }
            });
        }
        finally
        {
            foreach (var client in clients)
            {
                client?.Dispose();
            }
        }
    }
}
