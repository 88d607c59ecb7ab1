using PerfBudgets;
using PerfBudgets.Load;
using PerfBudgets.Measuring;

namespace PerfGate.Tests.Alloc.Api;

public sealed class DelayApiAllocationTests
{
    [Fact]
    public void Api_DelayAsync_ServerBytesPerRequest()
    {
        var gate = BudgetGate.Default;
        var requests = gate.Book.IntParameter("Alloc.Api.Requests");
        using var app = KestrelApp.Start();
        using var probe = new HttpKeepAliveProbe(app.EndPoint, "/api/delay/async?ms=0");
        for (var i = 0; i < 2_000; i++)
        {
            probe.Send().Should().Be(200);
        }

        probe.LastBody.SequenceEqual("Hello World,0"u8).Should().BeTrue();

        // The probe sends and receives on this thread and allocates nothing per request; its own bytes are
        // measured on this thread and taken out of the process-wide delta, so what remains is the server's.
        // Anything else the process allocates meanwhile (timers, the test runner) can only add bytes, so the
        // figure is the smallest of several batches: a real regression raises every batch.
        var batches = gate.Book.IntParameter("Alloc.Api.Batches");
        var perBatch = new double[batches];
        long clientBytes = 0;
        var gen0 = 0;
        for (var batch = 0; batch < batches; batch++)
        {
            var failures = 0;
            var region = AllocationMeter.StartProcessWide();
            var clientBefore = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < requests; i++)
            {
                if (probe.Send() != 200)
                {
                    failures++;
                }
            }

            var batchClientBytes = GC.GetAllocatedBytesForCurrentThread() - clientBefore;
            var process = region.Stop(requests);
            failures.Should().Be(0);
            clientBytes += batchClientBytes;
            gen0 += process.Gen0Collections;
            perBatch[batch] = (double)(process.TotalBytes - batchClientBytes) / requests;
        }

        var serverBytesPerRequest = perBatch.Min();
        var detail = $"min of {batches} batches x {requests:N0} keep-alive requests: {string.Join(" / ", perBatch.Select(b => b.ToString("N0", System.Globalization.CultureInfo.InvariantCulture)))} B, {gen0} gen-0 GCs";
        gate.Observe("Api.DelayAsync.ClientBytesPerRequest", (double)clientBytes / (requests * batches), "B/request", "the probe's own allocation, excluded from the server's");
        gate.Check("Api.DelayAsync.ServerBytesPerRequest", serverBytesPerRequest, detail);
    }
}
