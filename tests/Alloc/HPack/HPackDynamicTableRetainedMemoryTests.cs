using System.Text;
using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using Shared.Workloads;
using SystemUnderTest.HPack;

namespace Alloc.HPack;

/// <summary>
/// An HPACK dynamic table is bounded by its size setting (4,096 bytes by default): every insertion past it evicts.
/// Blocks that each insert a header never seen before fill the encoder's and the decoder's tables in the warm-up and
/// churn them after; live bytes per block over the second interval must stay near zero: growth past the table size
/// is a leak (<see cref="RetainedMemoryMeter"/>).
/// </summary>
public sealed class HPackDynamicTableRetainedMemoryTests
{
    // More distinct values than a 4,096-byte table can hold (each entry is 32 + name + value ≈ 70 bytes): cycling
    // through them inserts and evicts on every block.
    private const int DistinctValues = 4_096;

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact]
    public void HPack_DynamicTables_RetainedBytesPerBlock()
    {
        var encoder = new HPackEncoder();
        var decoder = new HPackDecoder();
        var handler = new HeaderCounter();
        var buffer = new byte[1024];
        var name = "x-request-id"u8.ToArray();
        var values = Enumerable.Range(0, DistinctValues).Select(i => Encoding.ASCII.GetBytes($"req-{i:D5}-0123456789abcdef")).ToArray();
        var fixedHeaders = HPackWorkloads.Bytes((":status", "200"), ("content-type", "application/grpc"));
        var block = 0;
        void EncodeAndDecode()
        {
            var written = HPackWorkloads.EncodeBlock(encoder, buffer, fixedHeaders, name, values[block++ % DistinctValues]);
            decoder.Decode(buffer.AsSpan(0, written), endHeaders: true, handler);
        }

        var warmUp = _gate.Book.IntParameter("Alloc.Retained.WarmUpOperations");
        var first = _gate.Book.IntParameter("Alloc.Retained.FirstIntervalOperations");
        var second = _gate.Book.IntParameter("Alloc.Retained.SecondIntervalOperations");

        var measured = RetainedMemoryMeter.Measure(EncodeAndDecode, warmUp, first, second, unit: "block");

        handler.Headers.Should().Be(3 * (warmUp + first + second), "every block decoded to its three headers");
        encoder.DynamicTableCount.Should().BeGreaterThan(10, "the table is full of distinct request ids");
        _gate.Check("HPack.DynamicTables.RetainedBytesPerBlock", measured.BytesPerOperation,
            $"encoder and decoder tables of 4,096 bytes, a new request id per block ({encoder.DynamicTableCount} entries in the encoder's table); {measured}",
            () => RetainedGrowth.OfSecondInterval(RetainedMemoryMeter.Measure(EncodeAndDecode, warmUp, first, second, GcHeapSnapshot.TakeOwn, "block")).ToAttribution());
    }
}
