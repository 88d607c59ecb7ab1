namespace SystemUnderTest.Sockets.Echo;

/// <summary>Why the echo service closed a connection.</summary>
public enum EchoCloseReason
{
    /// <summary>The peer closed its side between frames.</summary>
    PeerClosed,

    /// <summary>The peer closed its side in the middle of a frame.</summary>
    TruncatedFrame,

    /// <summary>The peer reset the connection.</summary>
    Reset,

    /// <summary>A length prefix with the top bit set (negative as a signed 32-bit integer).</summary>
    NegativeLength,

    /// <summary>A length prefix over <see cref="EchoServerOptions.MaxFrameBytes"/>.</summary>
    FrameTooLarge,

    /// <summary>The peer sent nothing for <see cref="EchoServerOptions.ReadTimeout"/>.</summary>
    ReadTimeout,

    /// <summary>The peer took no echo for <see cref="EchoServerOptions.WriteTimeout"/> (it stopped reading).</summary>
    WriteTimeout,

    /// <summary>The service is stopping.</summary>
    ServerStopping,

    /// <summary>Any other socket error.</summary>
    SocketError,
}
