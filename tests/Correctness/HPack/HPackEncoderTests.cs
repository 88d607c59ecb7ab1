using System.Globalization;
using PerfBudgets;
using SystemUnderTest.HPack;
using static Correctness.HPack.HPackTestData;

namespace Correctness.HPack;

/// <summary>The encoder's choices: compression of repeated blocks, sensitive headers, size updates, short buffers.</summary>
public sealed class HPackEncoderTests
{
    private static readonly string[] GrpcResponse =
    [
        ":status: 200", "content-type: application/grpc", "date: Mon, 23 Nov 2026 05:00:00 GMT", "server: Kestrel",
        "grpc-encoding: identity", "grpc-accept-encoding: identity,deflate,gzip",
    ];

    [Fact]
    public void Second_identical_grpc_response_block_is_within_budget()
    {
        var encoder = new HPackEncoder();
        var decoder = new HPackDecoder();
        var headers = Headers(GrpcResponse);
        var first = Encode(encoder, headers);
        var second = Encode(encoder, headers);
        Decode(decoder, first).Should().Equal(headers);
        Decode(decoder, second).Should().Equal(headers);
        SuiteGate.Current.Check("HPack.Encode.GrpcResponse.RepeatBlockBytes", second.Length,
            string.Create(CultureInfo.InvariantCulture, $"first block {first.Length} B, second {Convert.ToHexStringLower(second)}"));
    }

    public static TheoryData<string, string, bool> Sensitivity => new()
    {
        { "authorization", "Bearer abc", true },
        { "proxy-authorization", "Basic Zm9vOmJhcg==", true },
        { "set-cookie", "id=42; Path=/; HttpOnly", true },
        { "cookie", "id=42", true },
        { "cookie", "session=0123456789abcdefghij", false },
        { "x-custom", "Bearer abc", false },
    };

    [Theory]
    [MemberData(nameof(Sensitivity))]
    public void Sensitive_headers_are_never_indexed(string name, string value, bool sensitive)
    {
        var encoder = new HPackEncoder();
        var block = Encode(encoder, Headers($"{name}: {value}"));
        // 6.2.3: 0001xxxx; 6.2.1: 01xxxxxx.
        ((block[0] & 0xF0) == 0x10).Should().Be(sensitive);
        encoder.DynamicTableCount.Should().Be(sensitive ? 0 : 1);
        Decode(new HPackDecoder(), block).Should().Equal(Headers($"{name}: {value}"));
        // Repeated, a sensitive header is sent as a literal again.
        Encode(encoder, Headers($"{name}: {value}")).Length.Should().Be(sensitive ? block.Length : 1);
    }

    [Fact]
    public void Huffman_is_used_only_when_shorter()
    {
        var encoder = new HPackEncoder();
        // "www.example.com" is 12 bytes Huffman-coded (C.4.1); random bytes above 0x7F are longer, so they go raw.
        Convert.ToHexStringLower(Encode(encoder, Headers(":authority: www.example.com"))).Should().Be("41 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff".Replace(" ", "", StringComparison.Ordinal));
        var raw = new HPackEncoder();
        var block = Encode(raw, Headers("x-a: ÿÿÿÿ"));
        block[1].Should().Be(0x03, "the name 'x-a' is 18 bits Huffman-coded, no shorter than 3 bytes raw");
        block[5].Should().Be(0x08, "the value's 8 UTF-8 bytes would be longer Huffman-coded");
        Decode(new HPackDecoder(), block).Should().Equal(Headers("x-a: ÿÿÿÿ"));
    }

    [Fact]
    public void Table_size_change_is_announced_at_the_start_of_the_next_block()
    {
        var encoder = new HPackEncoder();
        var decoder = new HPackDecoder();
        Decode(decoder, Encode(encoder, Headers("x-a: 1", "x-b: 2"))).Should().HaveCount(2);
        encoder.SetMaxDynamicTableSize(0);
        encoder.SetMaxDynamicTableSize(100);
        encoder.DynamicTableCount.Should().Be(0, "the entries were evicted at size 0");
        var block = Encode(encoder, Headers("x-a: 1"));
        // 001xxxxx: 0 first (the smallest since the last block), then 100 (31 + 69).
        Convert.ToHexStringLower(block.AsSpan(0, 3)).Should().Be("203f45");
        Decode(decoder, block).Should().Equal(Headers("x-a: 1"));
        decoder.DynamicTableMaxSize.Should().Be(100);
        Encode(encoder, Headers("x-a: 1")).Should().Equal([0xBE], "the update went out once; the header is indexed at 62");
    }

    [Fact]
    public void Table_size_option_other_than_4096_is_announced_in_the_first_block()
    {
        var encoder = new HPackEncoder(new HPackEncoderOptions { MaxDynamicTableSize = 256 });
        var block = Encode(encoder, Headers(":method: GET"));
        Convert.ToHexStringLower(block).Should().Be("3fe10182");
    }

    [Fact]
    public void Encoding_requires_the_pending_size_update_to_be_written_first()
    {
        var encoder = new HPackEncoder();
        encoder.SetMaxDynamicTableSize(1000);
        var act = () => encoder.TryEncodeHeader("x-a"u8, "1"u8, new byte[64], out _);
        act.Should().Throw<InvalidOperationException>();
    }

    [Fact]
    public void A_short_buffer_fails_without_changing_the_table()
    {
        var encoder = new HPackEncoder();
        encoder.TryBeginHeaderBlock(new byte[8], out _).Should().BeTrue();
        for (var size = 0; size < 8; size++)
        {
            encoder.TryEncodeHeader("custom-key"u8, "custom-value"u8, new byte[size], out _).Should().BeFalse($"{size} bytes are too few");
            encoder.DynamicTableCount.Should().Be(0);
        }

        var buffer = new byte[64];
        encoder.TryEncodeHeader("custom-key"u8, "custom-value"u8, buffer, out var written).Should().BeTrue();
        Convert.ToHexStringLower(buffer.AsSpan(0, written)).Should().Be("408825a849e95ba97d7f8925a849e95bb8e8b4bf", "C.4.3's bytes");
        encoder.DynamicTableCount.Should().Be(1);
    }

    [Fact]
    public void Churn_through_a_small_table_stays_in_step_with_the_decoder()
    {
        var encoder = new HPackEncoder(new HPackEncoderOptions { MaxDynamicTableSize = 256 });
        var decoder = new HPackDecoder();
        for (var i = 0; i < 2_000; i++)
        {
            var headers = Headers($"x-request-id: {i % 37}", $"x-trace: {i % 11}-{i % 5}", "content-type: application/grpc");
            Decode(decoder, Encode(encoder, headers)).Should().Equal(headers, $"block {i}");
            decoder.DynamicTableSize.Should().Be(encoder.DynamicTableSize, $"block {i}");
        }
    }
}
