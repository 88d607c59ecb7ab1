using System.Text;
using BenchmarkDotNet.Attributes;
using Shared.HPackStories;
using SystemUnderTest.HPack;

namespace PerfGate.Bench.HPack;

/// <summary>
/// The HPACK codec over the vendored hpack-test-case corpus: decoding every header block that nine other encoders
/// produced, encoding every raw-data story at table size 4096, and decoding one typical request block on a warm
/// decoder. Headers/s and MB/s follow from the mean and the corpus figures that <see cref="Setup"/> prints.
/// </summary>
public class HPackCodecBenchmarks
{
    private static readonly string[] EncoderFolders =
    [
        "go-hpack", "haskell-http2-linear-huffman", "nghttp2", "nghttp2-16384-4096", "nghttp2-change-table-size",
        "node-http2-hpack", "python-hpack", "swift-nio-hpack-huffman", "swift-nio-hpack-plain-text",
    ];

    private readonly HeaderCounter _counter = new();
    private readonly byte[] _encodeBuffer = new byte[1 << 16];
    private List<(int? TableSize, byte[] Wire)[]> _encodedStories = [];
    private List<(byte[] Name, byte[] Value)[][]> _rawStories = [];
    private HPackDecoder _warmDecoder = new();
    private byte[] _typicalBlock = [];

    [GlobalSetup]
    public void Setup()
    {
        var archive = HPackStoryArchive.Read(FindArchive());
        _encodedStories = EncoderFolders
            .SelectMany(folder => archive.Stories(folder).Values)
            .Select(story => story.Cases.Select(c => (c.HeaderTableSize, c.Wire!)).ToArray())
            .ToList();
        _rawStories = archive.Stories("raw-data").Values
            .Select(story => story.Cases.Select(c => c.Headers.Select(h => (Utf8(h.Key), Utf8(h.Value))).ToArray()).ToArray())
            .ToList();

        var wireBytes = _encodedStories.Sum(s => s.Sum(c => (long)c.Wire.Length));
        var decodedHeaders = DecodeCorpus();
        var rawHeaders = _rawStories.Sum(s => s.Sum(b => b.Length));
        var rawBytes = _rawStories.Sum(s => s.Sum(b => b.Sum(h => (long)h.Name.Length + h.Value.Length)));
        Console.WriteLine($"// corpus: decode {_encodedStories.Sum(s => s.Length):N0} blocks, {decodedHeaders:N0} headers, {wireBytes:N0} wire bytes; " +
            $"encode {_rawStories.Sum(s => s.Length):N0} blocks, {rawHeaders:N0} headers, {rawBytes:N0} name+value bytes");

        var encoder = new HPackEncoder();
        var common = new (string, string)[]
        {
            (":method", "GET"), (":scheme", "https"), (":authority", "shop.example.com"),
            ("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"),
            ("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
            ("accept-encoding", "gzip, deflate"), ("cookie", "session=5f2b8c1e9d7a4e3f8b6c2d1a0e9f8b7c; theme=dark"),
        };
        var first = EncodeBlock(encoder, [.. common, (":path", "/")]);
        _typicalBlock = EncodeBlock(encoder, [.. common, (":path", "/api/orders/12345?expand=items")]);
        _warmDecoder = new HPackDecoder();
        _warmDecoder.Decode(first, endHeaders: true, _counter);
    }

    /// <summary>Every block of the nine encoder folders, one decoder per story (one connection).</summary>
    [Benchmark]
    public int DecodeCorpus()
    {
        _counter.Reset();
        foreach (var story in _encodedStories)
        {
            var decoder = new HPackDecoder(new HPackDecoderOptions { MaxDynamicTableSize = 65536, MaxHeaderListSize = 1 << 20 });
            foreach (var (tableSize, wire) in story)
            {
                if (tableSize is { } size)
                {
                    decoder.SetMaxDynamicTableSizeLimit(size);
                }

                decoder.Decode(wire, endHeaders: true, _counter);
            }
        }

        return _counter.Headers;
    }

    /// <summary>Every raw-data block, one encoder per story, dynamic table 4096.</summary>
    [Benchmark]
    public long EncodeRawData()
    {
        long written = 0;
        foreach (var story in _rawStories)
        {
            var encoder = new HPackEncoder();
            foreach (var block in story)
            {
                encoder.TryBeginHeaderBlock(_encodeBuffer, out var n);
                foreach (var (name, value) in block)
                {
                    encoder.TryEncodeHeader(name, value, _encodeBuffer.AsSpan(n), out var m);
                    n += m;
                }

                written += n;
            }
        }

        return written;
    }

    /// <summary>One 9-header browser request block on a warm decoder (static, dynamic and Huffman literal hits).</summary>
    [Benchmark]
    public int DecodeTypicalRequest()
    {
        _counter.Reset();
        _warmDecoder.Decode(_typicalBlock, endHeaders: true, _counter);
        return _counter.Headers;
    }

    private static byte[] EncodeBlock(HPackEncoder encoder, (string Name, string Value)[] headers)
    {
        var buffer = new byte[4096];
        encoder.TryBeginHeaderBlock(buffer, out var written);
        foreach (var (name, value) in headers)
        {
            encoder.TryEncodeHeader(Utf8(name), Utf8(value), buffer.AsSpan(written), out var n);
            written += n;
        }

        return buffer.AsSpan(0, written).ToArray();
    }

    private static byte[] Utf8(string s) => Encoding.UTF8.GetBytes(s);

    /// <summary>The archive in the source tree: BenchmarkDotNet runs the benchmark from a generated folder below bench/bin.</summary>
    private static string FindArchive()
    {
        const string relative = "tests/Correctness/HPack/TestVectors/hpack-test-case.tar.gz";
        foreach (var start in new[] { AppContext.BaseDirectory, Directory.GetCurrentDirectory() })
        {
            for (var dir = new DirectoryInfo(start); dir != null; dir = dir.Parent)
            {
                var candidate = Path.Combine(dir.FullName, relative);
                if (File.Exists(candidate))
                {
                    return candidate;
                }
            }
        }

        throw new FileNotFoundException($"{relative} not found above {AppContext.BaseDirectory}.");
    }
}
