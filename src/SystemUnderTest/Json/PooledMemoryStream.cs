namespace SystemUnderTest.Json;

/// <summary>
/// A <see cref="MemoryStream"/> owned by a <see cref="MemoryStreamStackPool"/>. It knows whether it is rented, so
/// returning it twice or touching it after return throws <see cref="JsonPoolMisuseException"/> instead of writing into
/// a buffer that another caller now owns.
/// </summary>
/// <remarks>
/// The rented flag catches misuse in the window before the stream is rented again; a caller that keeps a reference
/// across somebody else's rent is not detectable without a per-lease token, which the seed's design does not have.
/// </remarks>
public sealed class PooledMemoryStream : MemoryStream
{
    private const int Free = 0;
    private const int Rented = 1;
    private int _state;

    internal PooledMemoryStream(MemoryStreamStackPool owner, int capacity)
        : base(capacity)
    {
        Owner = owner;
    }

    internal MemoryStreamStackPool Owner { get; }

    /// <summary>True while a caller holds the stream.</summary>
    public bool IsRented => Volatile.Read(ref _state) == Rented;

    /// <inheritdoc />
    public override long Length
    {
        get
        {
            ThrowIfNotRented();
            return base.Length;
        }
    }

    /// <inheritdoc />
    public override long Position
    {
        get
        {
            ThrowIfNotRented();
            return base.Position;
        }

        set
        {
            ThrowIfNotRented();
            base.Position = value;
        }
    }

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count)
    {
        ThrowIfNotRented();
        base.Write(buffer, offset, count);
    }

    /// <inheritdoc />
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        ThrowIfNotRented();
        base.Write(buffer);
    }

    /// <inheritdoc />
    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        ThrowIfNotRented();
        return base.WriteAsync(buffer, cancellationToken);
    }

    /// <inheritdoc />
    public override void WriteByte(byte value)
    {
        ThrowIfNotRented();
        base.WriteByte(value);
    }

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count)
    {
        ThrowIfNotRented();
        return base.Read(buffer, offset, count);
    }

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        ThrowIfNotRented();
        return base.Read(buffer);
    }

    /// <inheritdoc />
    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        ThrowIfNotRented();
        return base.ReadAsync(buffer, cancellationToken);
    }

    /// <inheritdoc />
    public override int ReadByte()
    {
        ThrowIfNotRented();
        return base.ReadByte();
    }

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin loc)
    {
        ThrowIfNotRented();
        return base.Seek(offset, loc);
    }

    /// <inheritdoc />
    public override void SetLength(long value)
    {
        ThrowIfNotRented();
        base.SetLength(value);
    }

    /// <inheritdoc />
    public override byte[] GetBuffer()
    {
        ThrowIfNotRented();
        return base.GetBuffer();
    }

    /// <inheritdoc />
    public override bool TryGetBuffer(out ArraySegment<byte> buffer)
    {
        ThrowIfNotRented();
        return base.TryGetBuffer(out buffer);
    }

    /// <inheritdoc />
    public override byte[] ToArray()
    {
        ThrowIfNotRented();
        return base.ToArray();
    }

    /// <inheritdoc />
    public override void WriteTo(Stream stream)
    {
        ThrowIfNotRented();
        base.WriteTo(stream);
    }

    internal void MarkRented()
    {
        var previous = Interlocked.Exchange(ref _state, Rented);
        System.Diagnostics.Debug.Assert(previous == Free, "the pool only hands out free streams");
    }

    /// <summary>Marks the stream free and wipes what its user wrote, so the next user sees length 0 and zeros.</summary>
    internal void MarkReturned()
    {
        if (Interlocked.CompareExchange(ref _state, Free, Rented) != Rented)
        {
            throw new JsonPoolMisuseException("A PooledMemoryStream was returned twice (or returned without being rented).");
        }

        var length = (int)base.Length;
        if (base.TryGetBuffer(out var segment))
        {
            segment.Array.AsSpan(0, length).Clear();
        }

        base.SetLength(0);
        base.Position = 0;
    }

    private void ThrowIfNotRented()
    {
        if (Volatile.Read(ref _state) != Rented)
        {
            throw new JsonPoolMisuseException("A PooledMemoryStream was used after it was returned to its pool.");
        }
    }
}
