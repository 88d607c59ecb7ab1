using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace PerfBudgets.Measuring;

/// <summary>
/// Bytes per HTTP/1.1 response on the wire, read from a plain TCP socket rather than from the server: what a client
/// (and every proxy, and the network) receives, the head apart from the body. An adopter's one line:
/// <c>var size = await ResponseSizeMeter.MeasureAsync(new Uri(baseAddress, "api/items?count=9"), cancellationToken);</c>, then
/// <c>gate.Check("Items9.ResponseHeaderBytes", size.HeaderBytes, size.ToString())</c> with a <c>bytes-max</c> budget.
/// </summary>
/// <remarks>
/// The meter writes the request itself (request line, <c>Host</c>, the message's headers, <c>Content-Length</c> when it
/// has content), reads one response, and closes the connection; it sends no <c>Connection: close</c>, so the server
/// answers as it answers a keep-alive client. It reads <c>Content-Length</c> and chunked bodies, and a body delimited
/// by the connection's close. Only <c>http</c> URIs: over TLS the wire bytes would be records, not the response.
/// </remarks>
public static class ResponseSizeMeter
{
    /// <summary>The sizes of the response to <c>GET <paramref name="uri"/></c>.</summary>
    /// <exception cref="IOException">The server could not be reached or closed the connection before the response was complete.</exception>
    /// <exception cref="InvalidDataException">The response is not well-formed HTTP/1.1.</exception>
    public static async Task<ResponseSize> MeasureAsync(Uri uri, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, uri);
        return await MeasureAsync(request, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// The sizes of the response to <paramref name="request"/> (its method, absolute <c>http</c> URI, headers and
    /// content), sent on a connection of its own.
    /// </summary>
    /// <exception cref="ArgumentException">The request has no absolute <c>http</c> URI.</exception>
    /// <exception cref="IOException">The server could not be reached or closed the connection before the response was complete.</exception>
    /// <exception cref="InvalidDataException">The response is not well-formed HTTP/1.1.</exception>
    public static async Task<ResponseSize> MeasureAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (request.RequestUri is not { IsAbsoluteUri: true } uri || uri.Scheme != Uri.UriSchemeHttp)
        {
            throw new ArgumentException($"The request needs an absolute http URI (got '{request.RequestUri}').", nameof(request));
        }

        var bytes = await EncodeRequestAsync(request, uri, cancellationToken).ConfigureAwait(false);
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(uri.DnsSafeHost, uri.Port, cancellationToken).ConfigureAwait(false);
            await socket.SendAsync(bytes, SocketFlags.None, cancellationToken).ConfigureAwait(false);
            var reader = new WireReader(socket);
            return await ReadResponseAsync(reader, request.Method == HttpMethod.Head, cancellationToken).ConfigureAwait(false);
        }
        catch (SocketException e)
        {
            throw new IOException($"{request.Method} {uri}: socket error {e.SocketErrorCode} ({e.Message}).", e);
        }
    }

    private static async Task<byte[]> EncodeRequestAsync(HttpRequestMessage request, Uri uri, CancellationToken cancellationToken)
    {
        var head = new StringBuilder();
        head.Append(CultureInfo.InvariantCulture, $"{request.Method.Method} {uri.PathAndQuery} HTTP/1.1\r\n");
        head.Append(CultureInfo.InvariantCulture, $"Host: {request.Headers.Host ?? uri.Authority}\r\n");
        foreach (var (name, values) in request.Headers)
        {
            if (!name.Equals("Host", StringComparison.OrdinalIgnoreCase))
            {
                head.Append(CultureInfo.InvariantCulture, $"{name}: {string.Join(", ", values)}\r\n");
            }
        }

        byte[] content = [];
        if (request.Content is { } body)
        {
            content = await body.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false);
            foreach (var (name, values) in body.Headers)
            {
                if (!name.Equals("Content-Length", StringComparison.OrdinalIgnoreCase))
                {
                    head.Append(CultureInfo.InvariantCulture, $"{name}: {string.Join(", ", values)}\r\n");
                }
            }

            head.Append(CultureInfo.InvariantCulture, $"Content-Length: {content.Length}\r\n");
        }

        head.Append("\r\n");
        return [.. Encoding.Latin1.GetBytes(head.ToString()), .. content];
    }

    private static async Task<ResponseSize> ReadResponseAsync(WireReader reader, bool isHead, CancellationToken cancellationToken)
    {
        var headLength = await reader.ReadThroughAsync("\r\n\r\n"u8.ToArray(), cancellationToken).ConfigureAwait(false);
        var head = Encoding.Latin1.GetString(reader.Consume(headLength));
        var lines = head[..^4].Split("\r\n");
        var status = ParseStatusLine(lines[0]);
        var headers = new List<ResponseHeaderLine>(lines.Length - 1);
        foreach (var line in lines.AsSpan(1))
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            if (colon <= 0)
            {
                throw new InvalidDataException($"Malformed header line '{line}' in a response with status {status}.");
            }

            headers.Add(new ResponseHeaderLine(line[..colon], line[(colon + 1)..].Trim(' ', '\t'), line.Length + 2));
        }

        // RFC 9112 section 6.3: no body after HEAD, 1xx, 204 and 304; then chunked, then Content-Length, else until close.
        long bodyBytes = 0;
        long contentBytes = 0;
        if (!isHead && status is >= 200 and not 204 and not 304)
        {
            if (Find(headers, "Transfer-Encoding") is { } coding && coding.Contains("chunked", StringComparison.OrdinalIgnoreCase))
            {
                (bodyBytes, contentBytes) = await ReadChunkedAsync(reader, cancellationToken).ConfigureAwait(false);
            }
            else if (Find(headers, "Content-Length") is { } length)
            {
                if (!long.TryParse(length, NumberStyles.None, CultureInfo.InvariantCulture, out var declared))
                {
                    throw new InvalidDataException($"Malformed Content-Length '{length}'.");
                }

                await reader.SkipAsync(declared, cancellationToken).ConfigureAwait(false);
                bodyBytes = contentBytes = declared;
            }
            else
            {
                bodyBytes = contentBytes = await reader.SkipToEndAsync(cancellationToken).ConfigureAwait(false);
            }
        }

        return new ResponseSize(status, headLength, bodyBytes, contentBytes, headers);
    }

    // RFC 9112 section 7.1: chunk-size [ext] CRLF data CRLF ... last-chunk trailers CRLF. Every byte is on the wire.
    private static async Task<(long Wire, long Content)> ReadChunkedAsync(WireReader reader, CancellationToken cancellationToken)
    {
        long wire = 0;
        long content = 0;
        while (true)
        {
            var sizeLine = await ReadLineAsync(reader, cancellationToken).ConfigureAwait(false);
            wire += sizeLine.Length + 2;
            var hex = sizeLine.Split(';', 2)[0].Trim();
            if (!long.TryParse(hex, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var size) || size < 0)
            {
                throw new InvalidDataException($"Malformed chunk size line '{sizeLine}'.");
            }

            if (size == 0)
            {
                string trailer;
                do
                {
                    trailer = await ReadLineAsync(reader, cancellationToken).ConfigureAwait(false);
                    wire += trailer.Length + 2;
                }
                while (trailer.Length > 0);
                return (wire, content);
            }

            await reader.SkipAsync(size, cancellationToken).ConfigureAwait(false);
            if (await ReadLineAsync(reader, cancellationToken).ConfigureAwait(false) is { Length: > 0 } extra)
            {
                throw new InvalidDataException($"A chunk of {size} bytes is followed by '{extra}' instead of CRLF.");
            }

            wire += size + 2;
            content += size;
        }
    }

    private static async Task<string> ReadLineAsync(WireReader reader, CancellationToken cancellationToken)
    {
        var length = await reader.ReadThroughAsync("\r\n"u8.ToArray(), cancellationToken).ConfigureAwait(false);
        return Encoding.Latin1.GetString(reader.Consume(length)[..^2]);
    }

    private static int ParseStatusLine(string line)
    {
        // status-line = HTTP-version SP status-code SP [ reason-phrase ] (RFC 9112 section 4).
        var parts = line.Split(' ', 3);
        if (parts.Length < 2 || !parts[0].StartsWith("HTTP/1.", StringComparison.Ordinal) || parts[1].Length != 3
            || !int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var status))
        {
            throw new InvalidDataException($"Malformed status line '{line}'.");
        }

        return status;
    }

    private static string? Find(List<ResponseHeaderLine> headers, string name) =>
        headers.Find(h => h.Name.Equals(name, StringComparison.OrdinalIgnoreCase))?.Value;

    // What has been received and not yet consumed, in one buffer that grows by doubling.
    private sealed class WireReader(Socket socket)
    {
        private byte[] _buffer = new byte[4096];
        private int _start;
        private int _end;

        // The length of the received bytes up to and including the first occurrence of the delimiter.
        public async Task<int> ReadThroughAsync(byte[] delimiter, CancellationToken cancellationToken)
        {
            int index;
            while ((index = _buffer.AsSpan(_start, _end - _start).IndexOf(delimiter)) < 0)
            {
                if (!await ReceiveAsync(cancellationToken).ConfigureAwait(false))
                {
                    throw new IOException("The server closed the connection before the response was complete.");
                }
            }

            return index + delimiter.Length;
        }

        public ReadOnlySpan<byte> Consume(int length)
        {
            var consumed = _buffer.AsSpan(_start, length);
            _start += length;
            return consumed;
        }

        public async Task SkipAsync(long length, CancellationToken cancellationToken)
        {
            while (length > 0)
            {
                if (_start == _end && !await ReceiveAsync(cancellationToken).ConfigureAwait(false))
                {
                    throw new IOException($"The server closed the connection {length:N0} bytes before the end of the body.");
                }

                var take = (int)Math.Min(length, _end - _start);
                _start += take;
                length -= take;
            }
        }

        public async Task<long> SkipToEndAsync(CancellationToken cancellationToken)
        {
            long total = _end - _start;
            _start = _end;
            while (await ReceiveAsync(cancellationToken).ConfigureAwait(false))
            {
                total += _end - _start;
                _start = _end;
            }

            return total;
        }

        // Receives more; false when the server has closed the connection.
        private async Task<bool> ReceiveAsync(CancellationToken cancellationToken)
        {
            if (_start > 0)
            {
                _buffer.AsSpan(_start, _end - _start).CopyTo(_buffer);
                _end -= _start;
                _start = 0;
            }

            if (_end == _buffer.Length)
            {
                Array.Resize(ref _buffer, _buffer.Length * 2);
            }

            var received = await socket.ReceiveAsync(_buffer.AsMemory(_end), SocketFlags.None, cancellationToken).ConfigureAwait(false);
            _end += received;
            return received > 0;
        }
    }
}
