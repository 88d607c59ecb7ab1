namespace SystemUnderTest.HPack;

/// <summary>
/// An <see cref="IHPackHeaderHandler"/> that only counts headers and their bytes: it allocates nothing, so what an
/// allocation budget or a benchmark measures with it is the decoder's own work.
/// </summary>
internal sealed class HeaderCounter : IHPackHeaderHandler
{
    /// <summary>Headers seen since the last <see cref="Reset"/>.</summary>
    public int Headers { get; private set; }

    /// <summary>Name and value bytes seen since the last <see cref="Reset"/> (static hits count their value only).</summary>
    public long Bytes { get; private set; }

    /// <summary>Starts counting again from zero.</summary>
    public void Reset() => (Headers, Bytes) = (0, 0);

    /// <inheritdoc/>
    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        Headers++;
        Bytes += name.Length + value.Length;
    }

    /// <inheritdoc/>
    public void OnStaticIndexedHeader(int index) => Headers++;

    /// <inheritdoc/>
    public void OnStaticIndexedHeader(int index, ReadOnlySpan<byte> value)
    {
        Headers++;
        Bytes += value.Length;
    }
}
