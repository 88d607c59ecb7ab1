using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Load;
using PerfBudgets.Measuring;

namespace Alloc.Api;

public sealed class DelayApiAllocationTests
{
    [Fact]
    public void Api_DelayAsync_ServerBytesPerRequest()
    {
        var gate = SuiteGate.Current;
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
        var failures = 0;
        var measured = AllocationMeter.PerOperationExcludingCaller(() => failures += probe.Send() == 200 ? 0 : 1,
            requests, gate.Book.IntParameter("Alloc.Api.Batches"));

        failures.Should().Be(0);
        gate.Observe("Api.DelayAsync.ClientBytesPerRequest", measured.CallerBytesPerOperation, "B/request", "the probe's own allocation, excluded from the server's");
        gate.Check("Api.DelayAsync.ServerBytesPerRequest", measured.Smallest, $"keep-alive requests, {measured}",
            () => AllocationProfiler.PerOperationExcludingCaller(() => failures += probe.Send() == 200 ? 0 : 1).ToAttribution());
    }
}
