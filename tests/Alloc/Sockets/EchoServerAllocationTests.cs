using Microsoft.Extensions.Logging.Abstractions;
using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using SystemUnderTest.Sockets.Echo;

namespace Alloc.Sockets;

public sealed class EchoServerAllocationTests
{
    [Fact]
    public async Task Sockets_Echo_ServerBytesPerFrame()
    {
        var gate = SuiteGate.Current;
        var frames = gate.Book.IntParameter("Alloc.Sockets.Echo.Frames");
        var batches = gate.Book.IntParameter("Alloc.Sockets.Echo.Batches");
        await using var server = new EchoServer(new EchoServerOptions { Port = 0 }, NullLogger<EchoServer>.Instance);
        server.Start();
        using var client = EchoClient.Connect(server.EndPoint, 1_000, TimeSpan.FromSeconds(10));
        for (var i = 0; i < 2_000; i++)
        {
            client.Echo();
        }

        // The client sends and receives with blocking calls on this thread, verifying every echo; its own bytes
        // are taken out of the process-wide delta, so what remains is the server's, whose connection resumes on
        // pool threads.
        var measured = AllocationMeter.PerOperationExcludingCaller(client.Echo, frames, batches);

        // The counter moves just after the echo's send completes, which can be a moment after the client has it.
        SpinWait.SpinUntil(() => server.Counters.FramesEchoed == 2_000 + ((long)frames * batches), TimeSpan.FromSeconds(5));
        server.Counters.FramesEchoed.Should().Be(2_000 + ((long)frames * batches));
        gate.Observe("Sockets.Echo.ClientBytesPerFrame", measured.CallerBytesPerOperation, "B/frame", "the client's own allocation, excluded from the server's");
        gate.Check("Sockets.Echo.ServerBytesPerFrame", measured.Smallest, $"1,000-byte frames, {measured}",
            () => AllocationProfiler.PerOperationExcludingCaller(client.Echo).ToAttribution());
    }
}
