using SystemUnderTest.Sockets.Echo;
using Microsoft.Extensions.Logging.Abstractions;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Load;

namespace Load.Sockets;

public sealed class EchoServerLoadTests(ITestOutputHelper output)
{
    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Sockets_Echo_under_load()
    {
        var copies = _gate.Book.IntParameter("Load.Sockets.Echo.Connections");
        var warmUp = TimeSpan.FromSeconds(_gate.Book.Parameter("Load.WarmUpSeconds"));
        var duration = TimeSpan.FromSeconds(_gate.Book.Parameter("Load.DurationSeconds"));
        var ct = TestContext.Current.CancellationToken;
        await using var server = new EchoServer(new EchoServerOptions { Port = 0 }, NullLogger<EchoServer>.Instance);
        server.Start();

        // One persistent connection per copy; every echo is checked byte for byte by the client.
        var clients = new EchoClient[copies];
        for (var i = 0; i < copies; i++)
        {
            clients[i] = await EchoClient.ConnectAsync(server.EndPoint, 1_000, ct);
        }

        try
        {
            var scenario = new LoadScenario("Sockets.Echo", copies, warmUp, duration, async (copy, token) =>
            {
                await clients[copy].EchoAsync(token);
                return true;
            })
            {
                Progress = LoadProgressLog.To(output),
            };
            // Frames per second and p99 are wall-clock figures: a busy neighbour lowers one run, a slower service every
            // run, so a run that breaks only those is repeated (Load.Attempts) on the same connections; a failed
            // frame fails at once.
            long completed = 0;
            await _gate.CheckRunAsync(
                async () =>
                {
                    var result = await LoadRunner.RunAsync(scenario, ct);
                    output.WriteLine(result.ToString());
                    _gate.RecordLoad(result);
                    completed = result.Completed;
                    return result;
                },
                result =>
                [
                    new BudgetCheck("Sockets.Echo.FailedFrames", result.Failed, string.Join(" | ", result.FirstErrors)),
                    new BudgetCheck("Sockets.Echo.FramesPerSecond", result.RequestsPerSecond, result.ToString()),
                    new BudgetCheck("Sockets.Echo.P99Ms", result.P99Ms, result.ToString()),
                ],
                _gate.Book.IntParameter("Load.Attempts"));
            completed.Should().BePositive();
        }
        finally
        {
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }
    }
}
