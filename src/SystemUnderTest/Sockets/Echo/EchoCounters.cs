namespace SystemUnderTest.Sockets.Echo;

/// <summary>What the echo service has done since it started; safe to read while it runs.</summary>
internal sealed class EchoCounters
{
    private readonly long[] _closed = new long[Enum.GetValues<EchoCloseReason>().Length];
    private long _accepted;
    private long _rejected;
    private long _frames;
    private long _open;

    /// <summary>Connections accepted and served.</summary>
    public long Accepted => Interlocked.Read(ref _accepted);

    /// <summary>Connections closed at once because <see cref="EchoServerOptions.MaxConnections"/> were open.</summary>
    public long Rejected => Interlocked.Read(ref _rejected);

    /// <summary>Frames echoed.</summary>
    public long FramesEchoed => Interlocked.Read(ref _frames);

    /// <summary>Connections open now.</summary>
    public long OpenConnections => Interlocked.Read(ref _open);

    /// <summary>Connections closed for <paramref name="reason"/>.</summary>
    public long Closed(EchoCloseReason reason) => Interlocked.Read(ref _closed[(int)reason]);

    internal long Opened()
    {
        Interlocked.Increment(ref _accepted);
        return Interlocked.Increment(ref _open);
    }

    internal void Close(EchoCloseReason reason)
    {
        Interlocked.Increment(ref _closed[(int)reason]);
        Interlocked.Decrement(ref _open);
    }

    internal void Reject() => Interlocked.Increment(ref _rejected);

    internal void Echoed(int frames) => Interlocked.Add(ref _frames, frames);
}
