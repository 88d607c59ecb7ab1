using PerfBudgets;
using PerfBudgets.Load;
using PerfBudgets.Measuring;
using System.Text.Json;
using SystemUnderTest.Json;

namespace PerfGate.Tests.Alloc.Json;

public sealed class EmployeesEndpointAllocationTests
{
    [Fact]
    public void Json_Endpoint_Employees9_ServerBytesPerRequest()
    {
        var gate = BudgetGate.Default;
        var requests = gate.Book.IntParameter("Alloc.Json.Requests");
        var expected = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        using var app = KestrelApp.Start();
        using var probe = new HttpKeepAliveProbe(app.EndPoint, "/api/employees?count=9");
        for (var i = 0; i < 2_000; i++)
        {
            probe.Send().Should().Be(200);
        }

        probe.LastBody.SequenceEqual(expected).Should().BeTrue("the endpoint answers the 9-employee list");

        // As in DelayApiAllocationTests: the probe's own bytes (this thread) come out of the process-wide delta.
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

        var clientBytes = GC.GetAllocatedBytesForCurrentThread() - clientBefore;
        var process = region.Stop(requests);

        failures.Should().Be(0);
        var serverBytesPerRequest = (double)(process.TotalBytes - clientBytes) / requests;
        gate.Observe("Json.Endpoint.Employees9.ClientBytesPerRequest", (double)clientBytes / requests, "B/request", "the probe's own allocation, excluded from the server's");
        gate.Check("Json.Endpoint.Employees9.ServerBytesPerRequest", serverBytesPerRequest, $"{requests:N0} keep-alive requests, {process.Gen0Collections} gen-0 GCs");
    }
}
