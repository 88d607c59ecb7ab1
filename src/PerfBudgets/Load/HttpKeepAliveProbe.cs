using System.Net;
using System.Net.Sockets;
using System.Text;

namespace PerfBudgets.Load;

/// <summary>
/// An HTTP/1.1 client for one fixed request (a GET, or any method with a fixed body) on one keep-alive connection that allocates nothing per request:
/// the request bytes are encoded once, the response is read into one reused buffer, and socket calls are
/// synchronous on the caller's thread.
/// </summary>
/// <remarks>
/// It exists so a test can measure a server's allocation per request in the same process: the probe's own
/// allocation is zero and stays on the calling thread (<see cref="GC.GetAllocatedBytesForCurrentThread"/>
/// proves it), so the process-wide delta is the server's. It understands only responses with Content-Length.
/// </remarks>
public sealed class HttpKeepAliveProbe : IDisposable
{
    private static readonly byte[] HeaderEnd = "\r\n\r\n"u8.ToArray();
    private static readonly byte[] ContentLengthName = "content-length:"u8.ToArray();

    private readonly Socket _socket;
    private readonly byte[] _request;
    private readonly byte[] _buffer;
    private int _bodyStart;
    private int _bodyLength;

    /// <summary>Connects to <paramref name="endpoint"/> and prepares <c>GET <paramref name="pathAndQuery"/></c> (a 16 KiB response buffer).</summary>
    public HttpKeepAliveProbe(IPEndPoint endpoint, string pathAndQuery)
        : this(endpoint, "GET", pathAndQuery, null, [])
    {
    }

    /// <summary>
    /// Connects to <paramref name="endpoint"/> and prepares <c>GET <paramref name="pathAndQuery"/></c>, reading responses
    /// of up to <paramref name="bufferSize"/> bytes (headers and body).
    /// </summary>
    public HttpKeepAliveProbe(IPEndPoint endpoint, string pathAndQuery, int bufferSize)
        : this(endpoint, "GET", pathAndQuery, null, [], bufferSize)
    {
    }

    /// <summary>
    /// Connects to <paramref name="endpoint"/> and prepares <paramref name="method"/> <paramref name="pathAndQuery"/>
    /// with <paramref name="body"/> (sent with Content-Length and <paramref name="contentType"/> when not empty).
    /// </summary>
    public HttpKeepAliveProbe(IPEndPoint endpoint, string method, string pathAndQuery, string? contentType, ReadOnlySpan<byte> body, int bufferSize = 16 * 1024)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentException.ThrowIfNullOrWhiteSpace(method);
        ArgumentException.ThrowIfNullOrWhiteSpace(pathAndQuery);
        ArgumentOutOfRangeException.ThrowIfLessThan(bufferSize, 256);
        var head = body.IsEmpty && contentType == null
            ? $"{method} {pathAndQuery} HTTP/1.1\r\nHost: {endpoint}\r\n\r\n"
            : $"{method} {pathAndQuery} HTTP/1.1\r\nHost: {endpoint}\r\nContent-Type: {contentType ?? "application/octet-stream"}\r\nContent-Length: {body.Length}\r\n\r\n";
        _request = [.. Encoding.ASCII.GetBytes(head), .. body];
        _buffer = new byte[bufferSize];
        _socket = new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        _socket.ReceiveTimeout = 10_000;
        _socket.SendTimeout = 10_000;
        _socket.Connect(endpoint);
    }

    /// <summary>
    /// How long a send or a receive may wait before <see cref="Send"/> fails (10 s unless set). A server under Callgrind
    /// compiles its first requests fifty times slower, and slower still on a busy machine, so it needs longer.
    /// </summary>
    public TimeSpan Timeout
    {
        get => TimeSpan.FromMilliseconds(_socket.ReceiveTimeout);
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(value, TimeSpan.Zero);
            _socket.ReceiveTimeout = _socket.SendTimeout = checked((int)value.TotalMilliseconds);
        }
    }

    /// <summary>The body of the last response; valid until the next <see cref="Send"/>.</summary>
    public ReadOnlySpan<byte> LastBody => _buffer.AsSpan(_bodyStart, _bodyLength);

    /// <summary>Sends the request, reads the whole response, and returns its status code.</summary>
    /// <exception cref="InvalidDataException">The response is malformed, has no Content-Length, or exceeds the buffer.</exception>
    public int Send()
    {
        _socket.Send(_request);
        var received = 0;
        int headerLength;
        while ((headerLength = _buffer.AsSpan(0, received).IndexOf(HeaderEnd)) < 0)
        {
            received += ReceiveMore(received);
        }

        headerLength += HeaderEnd.Length;
        var head = _buffer.AsSpan(0, headerLength);
        var status = ParseStatus(head);
        _bodyLength = ParseContentLength(head);
        _bodyStart = headerLength;
        if (headerLength + _bodyLength > _buffer.Length)
        {
            throw new InvalidDataException($"Response of {headerLength + _bodyLength} bytes does not fit the probe's {_buffer.Length}-byte buffer.");
        }

        while (received < headerLength + _bodyLength)
        {
            received += ReceiveMore(received);
        }

        return status;
    }

    /// <inheritdoc />
    public void Dispose() => _socket.Dispose();

    private int ReceiveMore(int offset)
    {
        if (offset == _buffer.Length)
        {
            throw new InvalidDataException($"Response headers exceed the probe's {_buffer.Length}-byte buffer.");
        }

        var n = _socket.Receive(_buffer.AsSpan(offset));
        return n > 0 ? n : throw new InvalidDataException("The server closed the connection before the response was complete.");
    }

    private static int ParseStatus(ReadOnlySpan<byte> head)
    {
        // "HTTP/1.1 200 OK": three digits after the first space.
        var space = head.IndexOf((byte)' ');
        if (space < 0 || head.Length < space + 4)
        {
            throw new InvalidDataException("Malformed status line.");
        }

        var code = 0;
        foreach (var b in head.Slice(space + 1, 3))
        {
            if (b is < (byte)'0' or > (byte)'9')
            {
                throw new InvalidDataException("Malformed status code.");
            }

            code = (code * 10) + (b - '0');
        }

        return code;
    }

    private static int ParseContentLength(ReadOnlySpan<byte> head)
    {
        for (var lineStart = 0; lineStart < head.Length;)
        {
            var lineLength = head[lineStart..].IndexOf("\r\n"u8);
            if (lineLength <= 0)
            {
                break;
            }

            var line = head.Slice(lineStart, lineLength);
            if (line.Length > ContentLengthName.Length && Ascii.EqualsIgnoreCase(line[..ContentLengthName.Length], ContentLengthName))
            {
                var value = line[ContentLengthName.Length..].Trim((byte)' ');
                var length = 0;
                foreach (var b in value)
                {
                    if (b is < (byte)'0' or > (byte)'9' || length > (int.MaxValue - 9) / 10)
                    {
                        throw new InvalidDataException("Malformed Content-Length.");
                    }

                    length = (length * 10) + (b - '0');
                }

                return length;
            }

            lineStart += lineLength + 2;
        }

        throw new InvalidDataException("The response has no Content-Length; the probe does not read chunked bodies.");
    }
}
