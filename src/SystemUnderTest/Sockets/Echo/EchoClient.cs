using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace SystemUnderTest.Sockets.Echo;

/// <summary>
/// A client of the echo service for tests and load: one connection, one reused frame and one reused receive buffer;
/// every exchange sends a numbered frame and checks the echo byte for byte, allocating nothing in steady state.
/// </summary>
internal sealed class EchoClient : IDisposable
{
    private readonly Socket _socket;
    private readonly byte[] _frame;
    private readonly byte[] _echo;
    private readonly int _payloadBytes;
    private int _sequence;

    private EchoClient(Socket socket, int payloadBytes)
    {
        _socket = socket;
        _payloadBytes = payloadBytes;
        _frame = new byte[EchoFrame.HeaderBytes + payloadBytes];
        _echo = new byte[_frame.Length];
        BinaryPrimitives.WriteInt32BigEndian(_frame, payloadBytes);
        for (var i = EchoFrame.HeaderBytes; i < _frame.Length; i++)
        {
            _frame[i] = (byte)(i * 13);
        }
    }

    /// <summary>The client's own socket, exposed so tests can misbehave on it.</summary>
    public Socket Socket => _socket;

    /// <summary>Connects to the service at <paramref name="endPoint"/>; frames will carry <paramref name="payloadBytes"/> bytes.</summary>
    public static async Task<EchoClient> ConnectAsync(EndPoint endPoint, int payloadBytes, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(payloadBytes);
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(endPoint, cancellationToken);
            return new EchoClient(socket, payloadBytes);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Connects with a blocking call, for <see cref="Echo"/>: a socket that never ran an asynchronous operation stays
    /// in blocking mode, so its sends and receives are plain system calls that allocate nothing. (Once a socket has
    /// run one, .NET emulates blocking calls on it, at an allocation per call.)
    /// </summary>
    public static EchoClient Connect(EndPoint endPoint, int payloadBytes, TimeSpan timeout)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(payloadBytes);
        var milliseconds = (int)timeout.TotalMilliseconds;
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, SendTimeout = milliseconds, ReceiveTimeout = milliseconds };
        try
        {
            socket.Connect(endPoint);
            return new EchoClient(socket, payloadBytes);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Sends one frame and waits for its echo, bounded by <paramref name="cancellationToken"/>.</summary>
    /// <exception cref="EchoProtocolException">The service closed the connection or echoed other bytes.</exception>
    public async ValueTask EchoAsync(CancellationToken cancellationToken = default)
    {
        Stamp();
        await _socket.SendAsync(_frame.AsMemory(), SocketFlags.None, cancellationToken);
        for (var received = 0; received < _echo.Length;)
        {
            var n = await _socket.ReceiveAsync(_echo.AsMemory(received), SocketFlags.None, cancellationToken);
            received += n > 0 ? n : throw Closed(received);
        }

        Verify();
    }

    /// <summary>The same exchange with blocking calls on the calling thread (allocation measurements; see <see cref="Connect"/>).</summary>
    public void Echo()
    {
        Stamp();
        _socket.Send(_frame);
        for (var received = 0; received < _echo.Length;)
        {
            var n = _socket.Receive(_echo.AsSpan(received));
            received += n > 0 ? n : throw Closed(received);
        }

        Verify();
    }

    /// <inheritdoc />
    public void Dispose() => _socket.Dispose();

    private void Stamp()
    {
        if (_payloadBytes >= sizeof(int))
        {
            BinaryPrimitives.WriteInt32BigEndian(_frame.AsSpan(EchoFrame.HeaderBytes), ++_sequence);
        }
    }

    private void Verify()
    {
        if (!_echo.AsSpan().SequenceEqual(_frame))
        {
            throw new EchoProtocolException($"Frame {_sequence} ({_payloadBytes} B) came back with other bytes.");
        }
    }

    private EchoProtocolException Closed(int received) =>
        new($"The service closed the connection after {received} of {_echo.Length} bytes of the echo of frame {_sequence}.");
}
