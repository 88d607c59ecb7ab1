using System.Net.Sockets;

namespace SystemUnderTest.Sockets;

/// <summary>
/// A socket loop could not finish: the peer reset or closed the connection, a wait timed out, or a received
/// message did not match what was sent. The socket-level cause, if any, is the inner exception.
/// </summary>
public sealed class SocketLoopException : IOException
{
    /// <summary>Creates the exception.</summary>
    public SocketLoopException()
    {
    }

    /// <summary>Creates the exception with a message.</summary>
    public SocketLoopException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with a message and its cause.</summary>
    public SocketLoopException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    internal static SocketLoopException FromSocketError(string operation, long message, SocketError error) =>
        new(error is SocketError.ConnectionReset or SocketError.ConnectionAborted
                ? $"The peer reset the connection during {operation} of message {message}."
                : $"{operation} of message {message} failed: {error}.",
            new SocketException((int)error));

    internal static SocketLoopException SocketClosed(string operation, long message, ObjectDisposedException e) =>
        new($"The socket was closed before {operation} of message {message}.", e);

    internal static SocketLoopException PeerClosed(long message, int received, int size) =>
        new($"The peer closed the connection during receive of message {message} after {received} of {size} bytes.");
}
