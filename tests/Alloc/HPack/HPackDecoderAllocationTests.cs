using System.Globalization;
using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using Shared.Workloads;
using SystemUnderTest.HPack;

namespace Alloc.HPack;

public sealed class HPackDecoderAllocationTests
{
    [Fact]
    public void HPack_Decode_TypicalRequest_BytesPerOp()
    {
        var gate = SuiteGate.Current;
        var operations = gate.Book.IntParameter("Alloc.HPack.Operations");

        // The typical browser request block (static and dynamic hits, Huffman literals, one insertion per decode)
        // on a decoder primed with the block before it: the same work the CPU budget measures.
        var handler = new HeaderCounter();
        var (decoder, typical) = HPackWorkloads.PrimedDecoderAndTypicalRequest(handler);
        handler.Reset();
        decoder.Decode(typical, endHeaders: true, handler);
        handler.Headers.Should().Be(10, "the typical block decodes to its headers");

        var measured = AllocationMeter.PerOperation(() => decoder.Decode(typical, endHeaders: true, handler), operations);

        handler.Headers.Should().Be(10 * (1 + 1_000 + operations));
        gate.Check("HPack.Decode.TypicalRequest.BytesPerOp", measured.BytesPerOperation,
            string.Create(CultureInfo.InvariantCulture, $"{typical.Length}-byte block, 10 headers, {measured}"),
            () => AllocationProfiler.PerOperation(() => decoder.Decode(typical, endHeaders: true, handler)).ToAttribution());
    }
}
