using System.Globalization;
using System.Text;
using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using Shared.Workloads;
using SystemUnderTest.HPack;

namespace Alloc.HPack;

public sealed class HPackEncoderAllocationTests
{
    [Fact]
    public void HPack_Encode_GrpcResponse_BytesPerOp()
    {
        var gate = SuiteGate.Current;
        var operations = gate.Book.IntParameter("Alloc.HPack.Operations");
        // Setup outside the measured region: header bytes prepared once, dates cycling as a server's clock would.
        var operation = HPackWorkloads.GrpcResponseOperation(new HPackEncoder());
        long written = 0;

        var measured = AllocationMeter.PerOperation(() => written += operation(), operations);

        written.Should().BeGreaterThan(0);
        gate.Check("HPack.Encode.GrpcResponse.BytesPerOp", measured.BytesPerOperation,
            string.Create(CultureInfo.InvariantCulture, $"6 response headers + 2 trailers per op, {measured}"),
            () => AllocationProfiler.PerOperation(() => written += operation()).ToAttribution());
    }

    [Fact]
    public void HPack_Encode_DynamicTableChurn_BytesPerOp()
    {
        var gate = SuiteGate.Current;
        var operations = gate.Book.IntParameter("Alloc.HPack.Operations");
        var encoder = new HPackEncoder(new HPackEncoderOptions { MaxDynamicTableSize = 256 });
        var buffer = new byte[1024];
        // 64 distinct request ids of ~80 bytes each: the 256-byte table holds 3, so every block evicts the oldest.
        var ids = Enumerable.Range(0, 64).Select(i => Encoding.ASCII.GetBytes($"req-{i:D2}-0123456789abcdef")).ToArray();
        var name = "x-request-id"u8.ToArray();
        var fixedHeaders = HPackWorkloads.Bytes((":status", "200"), ("content-type", "application/grpc"));
        var block = 0;

        void Operation() => HPackWorkloads.EncodeBlock(encoder, buffer, fixedHeaders, name, ids[block++ & 63]);

        Operation();
        var evictionsPossible = encoder.DynamicTableCount;
        var measured = AllocationMeter.PerOperation(Operation, operations);
        encoder.DynamicTableCount.Should().BeLessThanOrEqualTo(3, "the table is full and churns");
        evictionsPossible.Should().BeGreaterThan(0);
        gate.Check("HPack.Encode.DynamicTableChurn.BytesPerOp", measured.BytesPerOperation,
            string.Create(CultureInfo.InvariantCulture, $"one insertion and eviction per block, 256-byte table, {measured}"),
            () => AllocationProfiler.PerOperation(Operation).ToAttribution());
    }
}
