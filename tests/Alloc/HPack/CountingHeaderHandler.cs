using SystemUnderTest.HPack;

namespace PerfGate.Tests.Alloc.HPack;

/// <summary>A handler that allocates nothing: it counts headers and bytes so the decoder's own allocations are what is measured.</summary>
internal sealed class CountingHeaderHandler : IHPackHeaderHandler
{
    public int Headers { get; private set; }

    public long Bytes { get; private set; }

    public void Reset() => (Headers, Bytes) = (0, 0);

    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        Headers++;
        Bytes += name.Length + value.Length;
    }

    public void OnStaticIndexedHeader(int index) => Headers++;

    public void OnStaticIndexedHeader(int index, ReadOnlySpan<byte> value)
    {
        Headers++;
        Bytes += value.Length;
    }
}
