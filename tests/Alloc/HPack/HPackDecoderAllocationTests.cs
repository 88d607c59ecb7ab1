using System.Globalization;
using System.Text;
using PerfBudgets;
using PerfBudgets.Measuring;
using SystemUnderTest.HPack;

namespace PerfGate.Tests.Alloc.HPack;

public sealed class HPackDecoderAllocationTests
{
    [Fact]
    public void HPack_Decode_TypicalRequest_BytesPerOp()
    {
        var gate = BudgetGate.Default;
        var operations = gate.Book.IntParameter("Alloc.HPack.Operations");

        // A browser-like request: the first block fills the dynamic table; the measured block then has static hits
        // (:method, :scheme, accept-encoding), dynamic hits (:authority, user-agent, accept, cookie...), a Huffman
        // literal without indexing (:path) and a literal with incremental indexing (x-request-id), which inserts
        // into the table (reusing an evicted entry) on every decode.
        var encoder = new HPackEncoder();
        var buffer = new byte[4096];
        var common = new[]
        {
            (":method", "GET"), (":scheme", "https"), (":authority", "shop.example.com"),
            ("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"),
            ("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
            ("accept-language", "en-US,en;q=0.5"), ("accept-encoding", "gzip, deflate"),
            ("cookie", "session=5f2b8c1e9d7a4e3f8b6c2d1a0e9f8b7c; theme=dark"),
        };
        var first = Encode(encoder, buffer, [.. common, (":path", "/"), ("x-request-id", "0")]);
        var typical = Encode(encoder, buffer, [.. common, (":path", "/api/orders/12345?expand=items"), ("x-request-id", "7f3c9e21-51a8-4b0e-9d6c-1a2b3c4d5e6f")]);

        var decoder = new HPackDecoder();
        var handler = new HeaderCounter();
        decoder.Decode(first, endHeaders: true, handler);
        handler.Reset();
        decoder.Decode(typical, endHeaders: true, handler);
        handler.Headers.Should().Be(10, "the typical block decodes to its headers");

        var measured = AllocationMeter.PerOperation(() => decoder.Decode(typical, endHeaders: true, handler), operations);

        handler.Headers.Should().Be(10 * (1 + 1_000 + operations));
        gate.Check("HPack.Decode.TypicalRequest.BytesPerOp", measured.BytesPerOperation,
            string.Create(CultureInfo.InvariantCulture, $"{typical.Length}-byte block, 10 headers, {measured}"));
    }

    private static byte[] Encode(HPackEncoder encoder, byte[] buffer, (string Name, string Value)[] headers)
    {
        encoder.TryBeginHeaderBlock(buffer, out var written).Should().BeTrue();
        foreach (var (name, value) in headers)
        {
            encoder.TryEncodeHeader(Encoding.ASCII.GetBytes(name), Encoding.ASCII.GetBytes(value), buffer.AsSpan(written), out var n).Should().BeTrue();
            written += n;
        }

        return buffer.AsSpan(0, written).ToArray();
    }
}
