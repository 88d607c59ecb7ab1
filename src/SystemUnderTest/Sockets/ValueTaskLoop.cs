using System.Net.Sockets;
using SystemUnderTest.Diagnostics;
using System.Runtime.CompilerServices;

namespace SystemUnderTest.Sockets;

/// <summary>
/// The same loop as <see cref="SaeaLoop"/> written with <see cref="Socket.SendAsync(ReadOnlyMemory{byte}, SocketFlags, CancellationToken)"/>
/// and <see cref="Socket.ReceiveAsync(Memory{byte}, SocketFlags, CancellationToken)"/>: each socket keeps one cached
/// awaitable event-args object behind those <see cref="ValueTask"/>s, so a steady-state message allocates nothing
/// whichever thread the loop resumes on.
/// </summary>
internal sealed class ValueTaskLoop : IDisposable
{
    private readonly SocketLoopOptions _options;
    private readonly LoopbackPair _pair;
    private readonly byte[] _sendBuffer;
    private readonly byte[] _receiveBuffer;

    // One source for the whole run, re-armed before every operation: a stalled peer cancels the pending operation
    // after OperationTimeout, and re-arming an existing timer allocates nothing.
    private readonly CancellationTokenSource _timeout = new();
    private long _message;

    /// <summary>Connects the loopback pair; no message is sent yet.</summary>
    public ValueTaskLoop(SocketLoopOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        _options = options;
        _pair = LoopbackPair.Connect(options.OperationTimeout, options.MessageSize);
        _sendBuffer = new byte[options.MessageSize];
        _receiveBuffer = new byte[options.MessageSize];
        MessagePattern.FillBody(_sendBuffer);
    }

    /// <summary>The sending socket, exposed so tests can break the connection.</summary>
    internal Socket Sender => _pair.Sender;

    /// <summary>The receiving socket, exposed so tests can break the connection.</summary>
    internal Socket Receiver => _pair.Receiver;

    /// <summary>Sends and receives <paramref name="messages"/> messages, verifying each one.</summary>
    /// <exception cref="SocketLoopException">The peer reset or closed, a wait timed out, or a message was wrong.</exception>
    public async Task<SocketLoopResult> RunAsync(long messages)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(messages);
        var clock = RunClock.Start();
        var size = _options.MessageSize;
        for (long i = 0; i < messages; i++)
        {
            MessagePattern.Stamp(_sendBuffer, _message);
            for (var sent = 0; sent < size;)
            {
                sent += await OperationAsync(_pair.Sender, _sendBuffer.AsMemory(sent), send: true);
            }

            for (var received = 0; received < size;)
            {
                var n = await OperationAsync(_pair.Receiver, _receiveBuffer.AsMemory(received), send: false);
                received += n > 0 ? n : throw SocketLoopException.PeerClosed(_message, received, size);
            }

            if (!MessagePattern.IsMessage(_receiveBuffer, _sendBuffer, _message))
            {
                throw new SocketLoopException($"Message {_message} arrived with the wrong bytes.");
            }

            _message++;
        }

        return new SocketLoopResult(clock.Elapsed, messages, messages * size,
            clock.Gen0, clock.Gen1, clock.Gen2);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _pair.Dispose();
        _timeout.Dispose();
    }

    // Pooled builder: when an operation does pend, this method's state machine comes from a pool instead of a new
    // box per pending operation.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<int> OperationAsync(Socket socket, Memory<byte> buffer, bool send)
    {
        var operation = send ? "send" : "receive";
        if (!_timeout.TryReset())
        {
            throw new SocketLoopException($"{operation} of message {_message} did not complete within {_options.OperationTimeout}.");
        }

        _timeout.CancelAfter(_options.OperationTimeout);
        try
        {
            return send
                ? await socket.SendAsync(buffer, SocketFlags.None, _timeout.Token)
                : await socket.ReceiveAsync(buffer, SocketFlags.None, _timeout.Token);
        }
        catch (OperationCanceledException e)
        {
            throw new SocketLoopException($"{operation} of message {_message} did not complete within {_options.OperationTimeout}.", e);
        }
        catch (SocketException e)
        {
            throw SocketLoopException.FromSocketError(operation, _message, e.SocketErrorCode);
        }
        catch (ObjectDisposedException e)
        {
            throw SocketLoopException.SocketClosed(operation, _message, e);
        }
    }
}
