using System.Net;
using System.Net.Sockets;

namespace SystemUnderTest.Sockets;

/// <summary>Two connected TCP sockets on 127.0.0.1 with Nagle off; the listener is closed once they are connected.</summary>
internal sealed class LoopbackPair : IDisposable
{
    private LoopbackPair(Socket sender, Socket receiver)
    {
        Sender = sender;
        Receiver = receiver;
    }

    /// <summary>The side that sends.</summary>
    public Socket Sender { get; }

    /// <summary>The side that receives.</summary>
    public Socket Receiver { get; }

    /// <summary>
    /// Connects a pair on an ephemeral loopback port, bounded by <paramref name="timeout"/>; the receive buffer holds
    /// at least two messages of <paramref name="messageSize"/> bytes, so a send never waits for the receiver.
    /// </summary>
    public static LoopbackPair Connect(TimeSpan timeout, int messageSize)
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);
        var sender = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        Socket? receiver = null;
        try
        {
            using var cts = new CancellationTokenSource(timeout);
            var accept = listener.AcceptAsync(cts.Token).AsTask();
            sender.ConnectAsync(listener.LocalEndPoint!, cts.Token).AsTask().GetAwaiter().GetResult();
            receiver = accept.GetAwaiter().GetResult();
            receiver.NoDelay = true;
            receiver.ReceiveBufferSize = Math.Max(receiver.ReceiveBufferSize, 2 * messageSize);
            return new LoopbackPair(sender, receiver);
        }
        catch
        {
            sender.Dispose();
            receiver?.Dispose();
            throw;
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        Sender.Dispose();
        Receiver.Dispose();
    }
}
