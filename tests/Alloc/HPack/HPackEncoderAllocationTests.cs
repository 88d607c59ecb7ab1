using System.Globalization;
using System.Text;
using PerfBudgets;
using PerfBudgets.Measuring;
using SystemUnderTest.HPack;

namespace PerfGate.Tests.Alloc.HPack;

public sealed class HPackEncoderAllocationTests
{
    [Fact]
    public void HPack_Encode_GrpcResponse_BytesPerOp()
    {
        var gate = BudgetGate.Default;
        var operations = gate.Book.IntParameter("Alloc.HPack.Operations");
        var encoder = new HPackEncoder();
        var buffer = new byte[1024];
        // Setup outside the measured region: header bytes prepared once, dates cycling as a server's clock would.
        var response = Bytes((":status", "200"), ("content-type", "application/grpc"), ("server", "Kestrel"),
            ("grpc-encoding", "identity"), ("grpc-accept-encoding", "identity,deflate,gzip"));
        var dates = Enumerable.Range(0, 4).Select(s => Encoding.ASCII.GetBytes($"Mon, 23 Nov 2026 05:00:0{s} GMT")).ToArray();
        var trailers = Bytes(("grpc-status", "0"), ("grpc-message", ""));
        var date = "date"u8.ToArray();
        var block = 0;
        long written = 0;

        void Operation()
        {
            written += EncodeBlock(encoder, buffer, response, date, dates[block++ & 3]);
            written += EncodeBlock(encoder, buffer, trailers, null, null);
        }

        var measured = AllocationMeter.PerOperation(Operation, operations);
        written.Should().BeGreaterThan(0);
        gate.Check("HPack.Encode.GrpcResponse.BytesPerOp", measured.BytesPerOperation,
            string.Create(CultureInfo.InvariantCulture, $"6 response headers + 2 trailers per op, {measured}"));
    }

    [Fact]
    public void HPack_Encode_DynamicTableChurn_BytesPerOp()
    {
        var gate = BudgetGate.Default;
        var operations = gate.Book.IntParameter("Alloc.HPack.Operations");
        var encoder = new HPackEncoder(new HPackEncoderOptions { MaxDynamicTableSize = 256 });
        var buffer = new byte[1024];
        // 64 distinct request ids of ~80 bytes each: the 256-byte table holds 3, so every block evicts the oldest.
        var ids = Enumerable.Range(0, 64).Select(i => Encoding.ASCII.GetBytes($"req-{i:D2}-0123456789abcdef")).ToArray();
        var name = "x-request-id"u8.ToArray();
        var fixedHeaders = Bytes((":status", "200"), ("content-type", "application/grpc"));
        var block = 0;

        void Operation() => EncodeBlock(encoder, buffer, fixedHeaders, name, ids[block++ & 63]);

        Operation();
        var evictionsPossible = encoder.DynamicTableCount;
        var measured = AllocationMeter.PerOperation(Operation, operations);
        encoder.DynamicTableCount.Should().BeLessThanOrEqualTo(3, "the table is full and churns");
        evictionsPossible.Should().BeGreaterThan(0);
        gate.Check("HPack.Encode.DynamicTableChurn.BytesPerOp", measured.BytesPerOperation,
            string.Create(CultureInfo.InvariantCulture, $"one insertion and eviction per block, 256-byte table, {measured}"));
    }

    private static (byte[] Name, byte[] Value)[] Bytes(params (string Name, string Value)[] headers) =>
        headers.Select(h => (Encoding.ASCII.GetBytes(h.Name), Encoding.ASCII.GetBytes(h.Value))).ToArray();

    private static int EncodeBlock(HPackEncoder encoder, byte[] buffer, (byte[] Name, byte[] Value)[] headers, byte[]? extraName, byte[]? extraValue)
    {
        if (!encoder.TryBeginHeaderBlock(buffer, out var written))
        {
            throw new InvalidOperationException("buffer too small");
        }

        foreach (var (name, value) in headers)
        {
            if (!encoder.TryEncodeHeader(name, value, buffer.AsSpan(written), out var n))
            {
                throw new InvalidOperationException("buffer too small");
            }

            written += n;
        }

        if (extraName != null && extraValue != null)
        {
            if (!encoder.TryEncodeHeader(extraName, extraValue, buffer.AsSpan(written), out var n))
            {
                throw new InvalidOperationException("buffer too small");
            }

            written += n;
        }

        return written;
    }
}
