using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Load;
using PerfBudgets.Measuring;
using System.Text.Json;
using SystemUnderTest.Json;

namespace Alloc.Json;

public sealed class EmployeesEndpointAllocationTests
{
    [Fact]
    public void Json_Endpoint_Employees9_ServerBytesPerRequest()
    {
        var gate = SuiteGate.Current;
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
        var measured = AllocationMeter.PerOperationExcludingCaller(() => failures += probe.Send() == 200 ? 0 : 1, requests, batches: 1);

        failures.Should().Be(0);
        gate.Observe("Json.Endpoint.Employees9.ClientBytesPerRequest", measured.CallerBytesPerOperation, "B/request", "the probe's own allocation, excluded from the server's");
        gate.Check("Json.Endpoint.Employees9.ServerBytesPerRequest", measured.Smallest, $"keep-alive requests, {measured}",
            () => AllocationProfiler.PerOperationExcludingCaller(() => failures += probe.Send() == 200 ? 0 : 1).ToAttribution());
    }

    [Fact]
    public void Json_Endpoint_Echo9_ServerBytesPerRequest()
    {
        var gate = SuiteGate.Current;
        var requests = gate.Book.IntParameter("Alloc.Json.Requests");
        var body = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), EmployeeJson.Default.List.Write);
        using var app = KestrelApp.Start();
        using var probe = new HttpKeepAliveProbe(app.EndPoint, "POST", "/api/employees/echo", "application/json", body);
        for (var i = 0; i < 2_000; i++)
        {
            probe.Send().Should().Be(200);
        }

        probe.LastBody.SequenceEqual(body).Should().BeTrue("the endpoint echoes the 9-employee list as it was sent");

        // As in DelayApiAllocationTests: the probe's own bytes (this thread) come out of the process-wide delta.
        // The deserialized list is the endpoint's work and counts: this budget is its size plus the pipeline's.
        var failures = 0;
        var measured = AllocationMeter.PerOperationExcludingCaller(() => failures += probe.Send() == 200 ? 0 : 1, requests, batches: 3);

        failures.Should().Be(0);
        gate.Check("Json.Endpoint.Echo9.ServerBytesPerRequest", measured.Smallest, $"POST of {body.Length:N0} bytes, {measured}",
            () => AllocationProfiler.PerOperationExcludingCaller(() => failures += probe.Send() == 200 ? 0 : 1).ToAttribution());
    }
}
