using SystemUnderTest.HPack;
using static Correctness.HPack.HPackTestData;

namespace Correctness.HPack;

/// <summary>RFC 7541 Appendix C, copied exactly: each row is a sequence of blocks on one connection.</summary>
public sealed class RfcAppendixCTests
{
    /// <summary>A block of an example: its bytes, the headers, and the dynamic table size after it.</summary>
    public sealed record Block(string Hex, string[] Headers, int TableSizeAfter);

    private static readonly Block[] C3 =
    [
        // C.3.1 First Request
        new("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"], 57),
        // C.3.2 Second Request
        new("8286 84be 5808 6e6f 2d63 6163 6865", [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache"], 110),
        // C.3.3 Third Request
        new("8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
            [":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com", "custom-key: custom-value"], 164),
    ];

    private static readonly Block[] C4 =
    [
        // C.4.1 First Request (Huffman)
        new("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"], 57),
        // C.4.2 Second Request
        new("8286 84be 5886 a8eb 1064 9cbf", [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache"], 110),
        // C.4.3 Third Request
        new("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
            [":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com", "custom-key: custom-value"], 164),
    ];

    private static readonly string[] C5Response1 = [":status: 302", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT", "location: https://www.example.com"];
    private static readonly string[] C5Response2 = [":status: 307", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT", "location: https://www.example.com"];
    private static readonly string[] C5Response3 =
    [
        ":status: 200", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:22 GMT", "location: https://www.example.com",
        "content-encoding: gzip", "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
    ];

    /// <summary>Every example of C.2-C.6 with the table size it runs at.</summary>
    public static TheoryData<string, int, Block[]> Examples => new()
    {
        // C.2.1 Literal Header Field with Indexing
        { "C.2.1", 4096, [new("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572", ["custom-key: custom-header"], 55)] },
        // C.2.2 Literal Header Field without Indexing
        { "C.2.2", 4096, [new("040c 2f73 616d 706c 652f 7061 7468", [":path: /sample/path"], 0)] },
        // C.2.3 Literal Header Field Never Indexed
        { "C.2.3", 4096, [new("1008 7061 7373 776f 7264 0673 6563 7265 74", ["password: secret"], 0)] },
        // C.2.4 Indexed Header Field
        { "C.2.4", 4096, [new("82", [":method: GET"], 0)] },
        { "C.3", 4096, C3 },
        { "C.4", 4096, C4 },
        // C.5 Response Examples without Huffman Coding (table size 256: evictions)
        {
            "C.5", 256,
            [
                new("4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", C5Response1, 222),
                new("4803 3330 37c1 c0bf", C5Response2, 222),
                new("88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31", C5Response3, 215),
            ]
        },
        // C.6 Response Examples with Huffman Coding
        {
            "C.6", 256,
            [
                new("4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3", C5Response1, 222),
                new("4883 640e ffc1 c0bf", C5Response2, 222),
                new("88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07", C5Response3, 215),
            ]
        },
    };

    [Theory]
    [MemberData(nameof(Examples))]
    public void Decoder_decodes_the_example_exactly(string example, int tableSize, Block[] blocks)
    {
        var decoder = new HPackDecoder(new HPackDecoderOptions { MaxDynamicTableSize = tableSize });
        foreach (var block in blocks)
        {
            Decode(decoder, Hex(block.Hex)).Should().Equal(Headers(block.Headers), example);
            decoder.DynamicTableSize.Should().Be(block.TableSizeAfter, example);
        }
    }

    public static TheoryData<string, bool> EncoderExamples => new()
    {
        { "C.3", false },
        { "C.4", true },
    };

    [Theory]
    [MemberData(nameof(EncoderExamples))]
    public void Encoder_reproduces_the_request_examples(string example, bool useHuffman)
    {
        var blocks = useHuffman ? C4 : C3;
        var encoder = new HPackEncoder(new HPackEncoderOptions { UseHuffman = useHuffman });
        foreach (var block in blocks)
        {
            Convert.ToHexStringLower(Encode(encoder, Headers(block.Headers))).Should().Be(block.Hex.Replace(" ", "", StringComparison.Ordinal), example);
            encoder.DynamicTableSize.Should().Be(block.TableSizeAfter, example);
        }
    }
}
