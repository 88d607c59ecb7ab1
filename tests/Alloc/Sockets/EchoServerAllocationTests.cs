using System.Globalization;
using Microsoft.Extensions.Logging.Abstractions;
using PerfBudgets;
using PerfBudgets.Measuring;
using SystemUnderTest.Sockets.Echo;

namespace PerfGate.Tests.Alloc.Sockets;

public sealed class EchoServerAllocationTests
{
    [Fact]
    public async Task Sockets_Echo_ServerBytesPerFrame()
    {
        var gate = BudgetGate.Default;
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
        // are measured on this thread and taken out of the process-wide delta, so what remains is the server's,
        // whose connection resumes on pool threads. Anything else the process allocates meanwhile can only add
        // bytes, so the figure is the smallest of several batches: a real regression raises every batch.
        var perBatch = new double[batches];
        long clientBytes = 0;
        for (var batch = 0; batch < batches; batch++)
        {
            var region = AllocationMeter.StartProcessWide();
            var clientBefore = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < frames; i++)
            {
                client.Echo();
            }

            var batchClientBytes = GC.GetAllocatedBytesForCurrentThread() - clientBefore;
            var process = region.Stop(frames);
            clientBytes += batchClientBytes;
            perBatch[batch] = (double)(process.TotalBytes - batchClientBytes) / frames;
        }

        // The counter moves just after the echo's send completes, which can be a moment after the client has it.
        SpinWait.SpinUntil(() => server.Counters.FramesEchoed == 2_000 + ((long)frames * batches), TimeSpan.FromSeconds(5));
        server.Counters.FramesEchoed.Should().Be(2_000 + ((long)frames * batches));
        gate.Observe("Sockets.Echo.ClientBytesPerFrame", (double)clientBytes / ((long)frames * batches), "B/frame", "the client's own allocation, excluded from the server's");
        gate.Check("Sockets.Echo.ServerBytesPerFrame", perBatch.Min(), string.Create(CultureInfo.InvariantCulture,
            $"min of {batches} batches x {frames:N0} 1,000-byte frames: {string.Join(" / ", perBatch.Select(b => b.ToString("0.###", CultureInfo.InvariantCulture)))} B/frame"));
    }
}
