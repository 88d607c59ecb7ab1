using System.Net.Sockets;
using SystemUnderTest.Diagnostics;

namespace SystemUnderTest.Sockets;

/// <summary>
/// The seed's loop: one socket sends a message with <see cref="SocketAsyncEventArgs"/>, the other receives it, over
/// and over. One reused <see cref="SocketAsyncEventArgs"/> and one reused buffer per side; the calling thread waits
/// only when an operation did not complete synchronously, so a steady-state message allocates nothing on it.
/// </summary>
/// <remarks>
/// Both sides run on the calling thread, alternately: on loopback a message that fits the socket buffers
/// completes synchronously almost always, and the runtime no longer allocates for a synchronous completion.
/// A pending operation completes on an I/O thread, which only sets the side's event.
/// </remarks>
internal sealed partial class SaeaLoop : IDisposable
{
    private readonly SocketLoopOptions _options;
    private readonly LoopbackPair _pair;
    private readonly Side _send;
    private readonly Side _receive;
    private long _message;

    /// <summary>Connects the loopback pair and prepares both sides; no message is sent yet.</summary>
    public SaeaLoop(SocketLoopOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        _options = options;
        _pair = LoopbackPair.Connect(options.OperationTimeout, options.MessageSize);
        _send = new Side(options.MessageSize);
        _receive = new Side(options.MessageSize);
        MessagePattern.FillBody(_send.Buffer);
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
        for (long i = 0; i < messages; i++)
        {
            SendOne();
            ReceiveOne();
            _message++;
        }

        return new SocketLoopResult(clock.Elapsed, messages, messages * _options.MessageSize,
            clock.Gen0, clock.Gen1, clock.Gen2);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _pair.Dispose();
        _send.Dispose();
        _receive.Dispose();
    }

    // False when the operation completed synchronously. A socket closed under the loop is the loop's error, not a
    // disposed-object bug, so it becomes a SocketLoopException like a reset.
    private bool StartSend(SocketAsyncEventArgs args) => Start(_pair.Sender, args, send: true);

    private bool StartReceive(SocketAsyncEventArgs args) => Start(_pair.Receiver, args, send: false);

    private bool Start(Socket socket, SocketAsyncEventArgs args, bool send)
    {
        try
        {
            return send ? socket.SendAsync(args) : socket.ReceiveAsync(args);
        }
        catch (ObjectDisposedException e)
        {
            throw SocketLoopException.SocketClosed(send ? "send" : "receive", _message, e);
        }
    }

    // Waits for a pending operation; the wait is bounded so a stalled peer cannot hang the loop.
    private void WaitForCompletion(Side side, string operation)
    {
        if (!side.Completed.Wait(_options.OperationTimeout))
        {
            throw new SocketLoopException($"{operation} of message {_message} did not complete within {_options.OperationTimeout}.");
        }
    }

    /// <summary>One direction's reused state: the event args, its buffer, and the event a pending completion sets.</summary>
    private sealed class Side : IDisposable
    {
        public Side(int size)
        {
            Buffer = new byte[size];
            Args = new SocketAsyncEventArgs();
            Args.SetBuffer(Buffer, 0, size);
            Args.UserToken = Completed;
            Args.Completed += OnCompleted;
        }

        public byte[] Buffer { get; }

        public SocketAsyncEventArgs Args { get; }

        public ManualResetEventSlim Completed { get; } = new(false);

        public void Dispose()
        {
            Args.Dispose();
            Completed.Dispose();
        }

        private static void OnCompleted(object? sender, SocketAsyncEventArgs args) => ((ManualResetEventSlim)args.UserToken!).Set();
    }
}
