namespace SystemUnderTest.Sockets.Echo;

/// <summary>The wire format: a 4-byte big-endian payload length, then the payload.</summary>
internal static class EchoFrame
{
    /// <summary>Bytes of the length prefix.</summary>
    public const int HeaderBytes = 4;
}
