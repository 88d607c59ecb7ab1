using System.Text;
using SystemUnderTest.HPack;

namespace Shared.HPackStories;

/// <summary>An <see cref="IHPackHeaderHandler"/> that collects headers as strings (interop and tests; it allocates).</summary>
internal sealed class HeaderListCollector : IHPackHeaderHandler
{
    /// <summary>The headers collected so far.</summary>
    public List<KeyValuePair<string, string>> Headers { get; } = [];

    /// <inheritdoc/>
    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) =>
        Headers.Add(new(Encoding.UTF8.GetString(name), Encoding.UTF8.GetString(value)));

    /// <inheritdoc/>
    public void OnStaticIndexedHeader(int index) => OnHeader(StaticTable.GetName(index), StaticTable.GetValue(index));

    /// <inheritdoc/>
    public void OnStaticIndexedHeader(int index, ReadOnlySpan<byte> value) => OnHeader(StaticTable.GetName(index), value);
}
