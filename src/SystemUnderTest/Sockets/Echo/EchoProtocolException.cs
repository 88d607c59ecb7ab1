namespace SystemUnderTest.Sockets.Echo;

/// <summary>An echo exchange failed: the service closed the connection, or what came back was not what was sent.</summary>
public sealed class EchoProtocolException : IOException
{
    /// <summary>Creates the exception.</summary>
    public EchoProtocolException()
    {
    }

    /// <summary>Creates the exception with a message.</summary>
    public EchoProtocolException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with a message and its cause.</summary>
    public EchoProtocolException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
