using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace SystemUnderTest.Json;

/// <summary>
/// A growable <see cref="IBufferWriter{T}"/> over one array, owned by a <see cref="BufferWriterPool"/>, with its own
/// <see cref="Utf8JsonWriter"/> that is <see cref="Utf8JsonWriter.Reset()"/> on every rent instead of being created
/// per call. The array grows by doubling and is kept across rents, so steady-state writes allocate nothing.
/// </summary>
/// <remarks>
/// Returning it twice, or writing or reading it after return, throws <see cref="JsonPoolMisuseException"/>. The
/// written bytes are cleared on return, so the next user sees <see cref="WrittenCount"/> 0 and zeros in its spans.
/// </remarks>
public sealed class PooledBufferWriter : IBufferWriter<byte>
{
    private const int Free = 0;
    private const int Rented = 1;
    private readonly Utf8JsonWriter _jsonWriter;
    private byte[] _buffer;
    private int _written;
    private int _state;

    internal PooledBufferWriter(BufferWriterPool owner, int capacity, JsonWriterOptions writerOptions)
    {
        Owner = owner;
        _buffer = new byte[capacity];
        _jsonWriter = new Utf8JsonWriter(this, writerOptions);
    }

    internal BufferWriterPool Owner { get; }

    /// <summary>True while a caller holds the writer.</summary>
    public bool IsRented => Volatile.Read(ref _state) == Rented;

    /// <summary>The JSON writer bound to this buffer, reset for the current user.</summary>
    public Utf8JsonWriter JsonWriter
    {
        get
        {
            ThrowIfNotRented();
            return _jsonWriter;
        }
    }

    /// <summary>Bytes written so far.</summary>
    public int WrittenCount
    {
        get
        {
            ThrowIfNotRented();
            return _written;
        }
    }

    /// <summary>The size of the underlying array.</summary>
    public int Capacity => _buffer.Length;

    /// <summary>What has been written; valid until the writer is returned.</summary>
    public ReadOnlySpan<byte> WrittenSpan
    {
        get
        {
            ThrowIfNotRented();
            return _buffer.AsSpan(0, _written);
        }
    }

    /// <summary>What has been written; valid until the writer is returned.</summary>
    public ReadOnlyMemory<byte> WrittenMemory
    {
        get
        {
            ThrowIfNotRented();
            return _buffer.AsMemory(0, _written);
        }
    }

    /// <inheritdoc />
    public void Advance(int count)
    {
        ThrowIfNotRented();
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count > _buffer.Length - _written)
        {
            throw new InvalidOperationException(string.Create(CultureInfo.InvariantCulture, $"Cannot advance {count} bytes past the end of a {_buffer.Length}-byte buffer holding {_written}."));
        }

        _written += count;
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        EnsureFree(sizeHint);
        return _buffer.AsMemory(_written);
    }

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        EnsureFree(sizeHint);
        return _buffer.AsSpan(_written);
    }

    /// <summary>Forgets what was written (clearing it), keeping the array: the writer is empty again.</summary>
    public void Clear()
    {
        ThrowIfNotRented();
        _buffer.AsSpan(0, _written).Clear();
        _written = 0;
        _jsonWriter.Reset();
    }

    internal void MarkRented()
    {
        var previous = Interlocked.Exchange(ref _state, Rented);
        Debug.Assert(previous == Free, "the pool only hands out free writers");
        _jsonWriter.Reset();
    }

    /// <summary>Marks the writer free and wipes it; false when the array grew past <paramref name="maximumRetainedBytes"/>.</summary>
    internal bool MarkReturned(int maximumRetainedBytes)
    {
        if (Interlocked.CompareExchange(ref _state, Free, Rented) != Rented)
        {
            throw new JsonPoolMisuseException("A PooledBufferWriter was returned twice (or returned without being rented).");
        }

        _jsonWriter.Reset();
        _buffer.AsSpan(0, _written).Clear();
        _written = 0;
        return _buffer.Length <= maximumRetainedBytes;
    }

    private void EnsureFree(int sizeHint)
    {
        ThrowIfNotRented();
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        var needed = Math.Max(sizeHint, 1);
        if (_buffer.Length - _written >= needed)
        {
            return;
        }

        // Doubling keeps the number of copies logarithmic in the final size; Array.MaxLength caps it.
        var newSize = (int)Math.Min(Array.MaxLength, Math.Max((long)_buffer.Length * 2, (long)_written + needed));
        if (newSize - _written < needed)
        {
            throw new OutOfMemoryException(string.Create(CultureInfo.InvariantCulture, $"A PooledBufferWriter cannot grow past {Array.MaxLength} bytes."));
        }

        var bigger = new byte[newSize];
        _buffer.AsSpan(0, _written).CopyTo(bigger);
        _buffer = bigger;
    }

    private void ThrowIfNotRented()
    {
        if (Volatile.Read(ref _state) != Rented)
        {
            throw new JsonPoolMisuseException("A PooledBufferWriter was used after it was returned to its pool.");
        }
    }
}
