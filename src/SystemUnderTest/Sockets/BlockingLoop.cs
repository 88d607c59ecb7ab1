using System.Net.Sockets;
using SystemUnderTest.Diagnostics;

namespace SystemUnderTest.Sockets;

/// <summary>
/// The baseline for the throughput ratio: the same loop as <see cref="SaeaLoop"/> with plain blocking
/// <see cref="Socket.Send(ReadOnlySpan{byte})"/> and <see cref="Socket.Receive(Span{byte})"/> on the calling thread.
/// </summary>
internal sealed class BlockingLoop : IDisposable
{
    private readonly SocketLoopOptions _options;
    private readonly LoopbackPair _pair;
    private readonly byte[] _sendBuffer;
    private readonly byte[] _receiveBuffer;
    private long _message;

    /// <summary>Connects the loopback pair; blocking calls time out after the operation timeout.</summary>
    public BlockingLoop(SocketLoopOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        _options = options;
        _pair = LoopbackPair.Connect(options.OperationTimeout, options.MessageSize);
        var timeoutMs = (int)Math.Min(int.MaxValue, options.OperationTimeout.TotalMilliseconds);
        _pair.Sender.SendTimeout = timeoutMs;
        _pair.Receiver.ReceiveTimeout = timeoutMs;
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
    public SocketLoopResult Run(long messages)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(messages);
        var clock = RunClock.Start();
        var size = _options.MessageSize;
        for (long i = 0; i < messages; i++)
        {
            MessagePattern.Stamp(_sendBuffer, _message);
            try
            {
                for (var sent = 0; sent < size;)
                {
                    sent += _pair.Sender.Send(_sendBuffer.AsSpan(sent));
                }

                for (var received = 0; received < size;)
                {
                    var n = _pair.Receiver.Receive(_receiveBuffer.AsSpan(received));
                    received += n > 0 ? n : throw SocketLoopException.PeerClosed(_message, received, size);
                }
            }
            catch (SocketException e)
            {
                throw SocketLoopException.FromSocketError(e.SocketErrorCode == SocketError.TimedOut ? "a timed-out blocking call" : "a blocking call", _message, e.SocketErrorCode);
            }
            catch (ObjectDisposedException e)
            {
                throw SocketLoopException.SocketClosed("a blocking call", _message, e);
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
    public void Dispose() => _pair.Dispose();
}
