using System.Text;
using Shared.HPackStories;
using SystemUnderTest.HPack;

namespace Shared.Workloads;

/// <summary>
/// The HPACK operations the allocation and CPU budgets measure, built once so both suites measure the same work:
/// a typical browser request block on a warm decoder, a gRPC response on a warm encoder, and the vendored corpus.
/// </summary>
internal static class HPackWorkloads
{
    /// <summary>The 9 headers shared by the priming block and the typical block.</summary>
    private static readonly (string Name, string Value)[] CommonRequestHeaders =
    [
        (":method", "GET"), (":scheme", "https"), (":authority", "shop.example.com"),
        ("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"),
        ("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
        ("accept-language", "en-US,en;q=0.5"), ("accept-encoding", "gzip, deflate"),
        ("cookie", "session=5f2b8c1e9d7a4e3f8b6c2d1a0e9f8b7c; theme=dark"),
    ];

    /// <summary>The folders of the corpus that hold other implementations' encoder output.</summary>
    public static readonly string[] CorpusEncoderFolders =
    [
        "go-hpack", "haskell-http2-linear-huffman", "nghttp2", "nghttp2-16384-4096", "nghttp2-change-table-size",
        "node-http2-hpack", "python-hpack", "swift-nio-hpack-huffman", "swift-nio-hpack-plain-text",
    ];

    /// <summary>The corpus archive as the test projects copy it into their output.</summary>
    public static string CorpusArchivePath => Path.Combine(AppContext.BaseDirectory, "HPack", "TestVectors", "hpack-test-case.tar.gz");

    /// <summary>
    /// A browser-like request: the first block fills the dynamic table; the typical block then has static hits
    /// (:method, :scheme, accept-encoding), dynamic hits (:authority, user-agent, accept, cookie...), a Huffman
    /// literal without indexing (:path) and a literal with incremental indexing (x-request-id), which inserts into
    /// the table (reusing an evicted entry) on every decode. Returns a decoder primed with the first block.
    /// </summary>
    public static (HPackDecoder Decoder, byte[] TypicalBlock) PrimedDecoderAndTypicalRequest(IHPackHeaderHandler handler)
    {
        var encoder = new HPackEncoder();
        var buffer = new byte[4096];
        var first = Encode(encoder, buffer, [.. CommonRequestHeaders, (":path", "/"), ("x-request-id", "0")]);
        var typical = Encode(encoder, buffer, [.. CommonRequestHeaders, (":path", "/api/orders/12345?expand=items"), ("x-request-id", "7f3c9e21-51a8-4b0e-9d6c-1a2b3c4d5e6f")]);
        var decoder = new HPackDecoder();
        decoder.Decode(first, endHeaders: true, handler);
        return (decoder, typical);
    }

    /// <summary>
    /// One gRPC response on a warm encoder: 6 response headers (the date cycling as a server's clock would) and a
    /// 2-header trailer block. Returns the operation and a counter of the bytes it wrote.
    /// </summary>
    public static Func<long> GrpcResponseOperation(HPackEncoder encoder)
    {
        ArgumentNullException.ThrowIfNull(encoder);
        var buffer = new byte[1024];
        var response = Bytes((":status", "200"), ("content-type", "application/grpc"), ("server", "Kestrel"),
            ("grpc-encoding", "identity"), ("grpc-accept-encoding", "identity,deflate,gzip"));
        var dates = Enumerable.Range(0, 4).Select(s => Encoding.ASCII.GetBytes($"Mon, 23 Nov 2026 05:00:0{s} GMT")).ToArray();
        var trailers = Bytes(("grpc-status", "0"), ("grpc-message", ""));
        var date = "date"u8.ToArray();
        var block = 0;
        return () => EncodeBlock(encoder, buffer, response, date, dates[block++ & 3]) + EncodeBlock(encoder, buffer, trailers, null, null);
    }

    /// <summary>Every block of the corpus's encoder folders as (table size announced, wire bytes), story by story.</summary>
    public static List<(int? TableSize, byte[] Wire)[]> EncodedCorpusStories(HPackStoryArchive archive)
    {
        ArgumentNullException.ThrowIfNull(archive);
        return CorpusEncoderFolders
            .SelectMany(folder => archive.Stories(folder).Values)
            .Select(story => story.Cases.Select(c => (c.HeaderTableSize, c.Wire!)).ToArray())
            .ToList();
    }

    /// <summary>Every raw-data story's blocks as name/value byte pairs.</summary>
    public static List<(byte[] Name, byte[] Value)[][]> RawCorpusStories(HPackStoryArchive archive)
    {
        ArgumentNullException.ThrowIfNull(archive);
        return archive.Stories("raw-data").Values
            .Select(story => story.Cases.Select(c => c.Headers.Select(h => (Encoding.UTF8.GetBytes(h.Key), Encoding.UTF8.GetBytes(h.Value))).ToArray()).ToArray())
            .ToList();
    }

    /// <summary>Decodes every encoded story with a new decoder per story (one connection each); returns the headers decoded.</summary>
    public static long DecodeCorpus(List<(int? TableSize, byte[] Wire)[]> stories, HeaderCounter counter)
    {
        ArgumentNullException.ThrowIfNull(stories);
        ArgumentNullException.ThrowIfNull(counter);
        counter.Reset();
        foreach (var story in stories)
        {
            var decoder = new HPackDecoder(new HPackDecoderOptions { MaxDynamicTableSize = 65536, MaxHeaderListSize = 1 << 20 });
            foreach (var (tableSize, wire) in story)
            {
                if (tableSize is { } size)
                {
                    decoder.SetMaxDynamicTableSizeLimit(size);
                }

                decoder.Decode(wire, endHeaders: true, counter);
            }
        }

        return counter.Headers;
    }

    /// <summary>Encodes every raw-data story with a new encoder per story (table 4096) into <paramref name="buffer"/>; returns the wire bytes.</summary>
    public static long EncodeRawCorpus(List<(byte[] Name, byte[] Value)[][]> stories, byte[] buffer)
    {
        ArgumentNullException.ThrowIfNull(stories);
        long written = 0;
        foreach (var story in stories)
        {
            var encoder = new HPackEncoder();
            foreach (var block in story)
            {
                if (!encoder.TryBeginHeaderBlock(buffer, out var n))
                {
                    throw new InvalidOperationException("buffer too small");
                }

                foreach (var (name, value) in block)
                {
                    if (!encoder.TryEncodeHeader(name, value, buffer.AsSpan(n), out var m))
                    {
                        throw new InvalidOperationException("buffer too small");
                    }

                    n += m;
                }

                written += n;
            }
        }

        return written;
    }

    /// <summary>Encodes one block of <paramref name="headers"/> into a copy of the written bytes.</summary>
    public static byte[] Encode(HPackEncoder encoder, byte[] buffer, (string Name, string Value)[] headers)
    {
        ArgumentNullException.ThrowIfNull(encoder);
        ArgumentNullException.ThrowIfNull(headers);
        var written = EncodeBlock(encoder, buffer, Bytes(headers), null, null);
        return buffer.AsSpan(0, written).ToArray();
    }

    /// <summary>Header names and values as ASCII bytes, prepared outside any measured region.</summary>
    public static (byte[] Name, byte[] Value)[] Bytes(params (string Name, string Value)[] headers) =>
        headers.Select(h => (Encoding.ASCII.GetBytes(h.Name), Encoding.ASCII.GetBytes(h.Value))).ToArray();

    /// <summary>Encodes one block: the headers, then the optional extra header; returns the bytes written.</summary>
    public static int EncodeBlock(HPackEncoder encoder, byte[] buffer, (byte[] Name, byte[] Value)[] headers, byte[]? extraName, byte[]? extraValue)
    {
        ArgumentNullException.ThrowIfNull(encoder);
        ArgumentNullException.ThrowIfNull(headers);
        if (!encoder.TryBeginHeaderBlock(buffer, out var written))
        {
            throw new InvalidOperationException("buffer too small");
        }

        foreach (var (name, value) in headers)
        {
            written += EncodeHeader(encoder, buffer, written, name, value);
        }

        if (extraName != null && extraValue != null)
        {
            written += EncodeHeader(encoder, buffer, written, extraName, extraValue);
        }

        return written;
    }

    private static int EncodeHeader(HPackEncoder encoder, byte[] buffer, int offset, byte[] name, byte[] value) =>
        encoder.TryEncodeHeader(name, value, buffer.AsSpan(offset), out var n) ? n : throw new InvalidOperationException("buffer too small");
}
