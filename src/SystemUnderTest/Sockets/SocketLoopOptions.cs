namespace SystemUnderTest.Sockets;

/// <summary>Settings shared by the socket loops.</summary>
internal sealed record SocketLoopOptions
{
    /// <summary>Largest message: both sides run on one thread, so a whole message must fit in the socket buffers.</summary>
    public const int MaxMessageSize = 64 * 1024;

    /// <summary>Bytes per message (4 to <see cref="MaxMessageSize"/>); the seed sends 1,000.</summary>
    public int MessageSize { get; init; } = 1_000;

    /// <summary>Longest wait for any single send or receive; a stalled peer becomes a <see cref="SocketLoopException"/>.</summary>
    public TimeSpan OperationTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Throws for settings a loop cannot run with.</summary>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(MessageSize, MessagePattern.MinSize, nameof(MessageSize));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(MessageSize, MaxMessageSize, nameof(MessageSize));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(OperationTimeout, TimeSpan.Zero, nameof(OperationTimeout));
    }
}
