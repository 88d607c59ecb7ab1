using System.Buffers;
using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace SystemUnderTest.Sockets.Echo;

/// <summary>
/// One accepted connection: reads frames into one pooled buffer and sends each run of complete frames back with one
/// send, straight from that buffer. Socket operations go through the socket's cached awaitable event args and the
/// timeouts re-arm one timer, so a steady-state frame allocates nothing.
/// </summary>
internal sealed class EchoConnection
{
    private readonly Socket _socket;
    private readonly EchoServerOptions _options;
    private readonly EchoCounters _counters;
    private readonly Action<EchoConnection, EchoCloseReason, Exception?> _closed;

    // Arms the read or write timeout before each operation; Cancel() from RequestStop ends an idle read.
    private readonly CancellationTokenSource _timeout = new();
    private volatile bool _stopRequested;
    private volatile bool _idle;

    // Whether the loop is in a receive (else a send), so a cancelled operation names the right timeout.
    private bool _reading;
    public EchoConnection(Socket socket, EchoServerOptions options, EchoCounters counters, Action<EchoConnection, EchoCloseReason, Exception?> closed)
    {
        _socket = socket;
        _options = options;
        _counters = counters;
        _closed = closed;
        RemoteEndPoint = socket.RemoteEndPoint;
    }

    /// <summary>The peer, for the log.</summary>
    public EndPoint? RemoteEndPoint { get; }

    /// <summary>
    /// Asks the connection to close at the next frame boundary: at once if it waits for a new frame, else once the
    /// frame it is reading has been echoed.
    /// </summary>
    public void RequestStop()
    {
        // Each side writes its flag, then reads the other's (volatile, so neither read moves above the write): either
        // the loop sees the stop before it waits, or this sees the loop waiting and cancels the wait.
        _stopRequested = true;
        Interlocked.MemoryBarrier();
        if (_idle)
        {
            CancelWait();
        }
    }

    /// <summary>Ends the connection at once (shutdown took longer than its timeout).</summary>
    public void Abort() => _socket.Dispose();

    /// <summary>Serves the connection until the peer leaves, breaks the protocol, times out, or the service stops.</summary>
    public async Task RunAsync()
    {
        var buffer = ArrayPool<byte>.Shared.Rent(EchoFrame.HeaderBytes + _options.MaxFrameBytes);
        var reason = EchoCloseReason.PeerClosed;
        Exception? error = null;
        try
        {
            reason = await ServeAsync(buffer);
        }
        catch (OperationCanceledException e)
        {
            (reason, error) = (_stopRequested ? EchoCloseReason.ServerStopping : _reading ? EchoCloseReason.ReadTimeout : EchoCloseReason.WriteTimeout, e);
        }
        catch (SocketException e)
        {
            (reason, error) = (e.SocketErrorCode switch
            {
                SocketError.ConnectionReset or SocketError.ConnectionAborted => EchoCloseReason.Reset,
                _ when _stopRequested => EchoCloseReason.ServerStopping,
                _ => EchoCloseReason.SocketError,
            }, e);
        }
        catch (ObjectDisposedException e)
        {
            (reason, error) = (EchoCloseReason.ServerStopping, e);
        }
        finally
        {
            _socket.Dispose();
            _timeout.Dispose();
            ArrayPool<byte>.Shared.Return(buffer);
        }

        _closed(this, reason, error);
    }

    private async Task<EchoCloseReason> ServeAsync(byte[] buffer)
    {
        int start = 0, end = 0;
        while (true)
        {
            // Every complete frame in the buffer goes back in one send, as the bytes arrived.
            var frames = 0;
            var scan = start;
            while (end - scan >= EchoFrame.HeaderBytes)
            {
                var length = BinaryPrimitives.ReadInt32BigEndian(buffer.AsSpan(scan));
                if (length < 0)
                {
                    return EchoCloseReason.NegativeLength;
                }

                if (length > _options.MaxFrameBytes)
                {
                    return EchoCloseReason.FrameTooLarge;
                }

                if (end - scan - EchoFrame.HeaderBytes < length)
                {
                    break;
                }

                scan += EchoFrame.HeaderBytes + length;
                frames++;
            }

            if (frames > 0)
            {
                Arm(_options.WriteTimeout);
                await _socket.SendAsync(buffer.AsMemory(start, scan - start), SocketFlags.None, _timeout.Token);
                _counters.Echoed(frames);
                start = scan;
            }

            if (start == end)
            {
                start = end = 0;
            }
            else if (start > 0 && end == buffer.Length)
            {
                // The frame being read needs the room its predecessors used.
                buffer.AsSpan(start, end - start).CopyTo(buffer);
                (start, end) = (0, end - start);
            }

            var boundary = start == end;
            if (boundary)
            {
                _idle = true;
                Interlocked.MemoryBarrier();
                if (_stopRequested)
                {
                    return EchoCloseReason.ServerStopping;
                }
            }

            // Awaited here, not in a helper: this method's state machine is boxed once per connection, while a
            // helper's would be boxed again each time its receive pends.
            Arm(_options.ReadTimeout);
            _reading = true;
            var received = await _socket.ReceiveAsync(buffer.AsMemory(end), SocketFlags.None, _timeout.Token);
            _reading = false;
            _idle = false;
            if (received == 0)
            {
                return boundary ? EchoCloseReason.PeerClosed : EchoCloseReason.TruncatedFrame;
            }

            end += received;
        }
    }

    // Re-arms the one timer; a source that already fired (a timeout or a stop) cannot be reset and ends the connection.
    private void Arm(TimeSpan timeout)
    {
        if (!_timeout.TryReset())
        {
            throw new OperationCanceledException(_timeout.Token);
        }

        _timeout.CancelAfter(timeout);
    }

    private void CancelWait()
    {
        try
        {
            _timeout.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The connection ended on its own meanwhile.
        }
    }
}
