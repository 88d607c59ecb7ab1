using System.Diagnostics;

namespace SystemUnderTest.HPack;

/// <summary>
/// The decoder's dynamic table, RFC 7541 section 2.3.2 and 4: a circular array of entries, newest first, with
/// FIFO eviction by size (name + value + 32). Evicted entries keep their byte buffers and are reused by later
/// insertions, so a warm table inserts without allocating.
/// </summary>
internal sealed class DynamicTable
{
    /// <summary>The per-entry overhead, RFC 7541 section 4.1.</summary>
    public const int EntryOverhead = 32;

    private Entry?[] _slots;
    private int _insertAt;

    /// <summary>Creates a table whose maximum size is <paramref name="maxSize"/> bytes.</summary>
    public DynamicTable(int maxSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxSize);
        MaxSize = maxSize;
        _slots = new Entry?[SlotsFor(maxSize)];
    }

    /// <summary>The number of entries.</summary>
    public int Count { get; private set; }

    /// <summary>The sum of the entries' sizes.</summary>
    public int Size { get; private set; }

    /// <summary>The current maximum size (changed by size updates).</summary>
    public int MaxSize { get; private set; }

    /// <summary>The name of entry <paramref name="index"/>, 0 being the newest (dynamic index 62).</summary>
    public ReadOnlySpan<byte> GetName(int index) => GetEntry(index).Name;

    /// <summary>The value of entry <paramref name="index"/>, 0 being the newest.</summary>
    public ReadOnlySpan<byte> GetValue(int index) => GetEntry(index).Value;

    /// <summary>
    /// Inserts an entry, evicting the oldest until it fits; an entry larger than the maximum size empties the table
    /// (section 4.4). <paramref name="name"/> may be the name of an entry that this insertion evicts.
    /// </summary>
    public void Insert(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var entrySize = (long)name.Length + value.Length + EntryOverhead;
        if (entrySize > MaxSize)
        {
            Clear();
            return;
        }

        while (Size + entrySize > MaxSize)
        {
            RemoveOldest();
        }

        Debug.Assert(Count < _slots.Length, "slots hold MaxSize / 32 entries");
        var entry = _slots[_insertAt] ??= new Entry();
        // An evicted entry's name may be the source; it starts at offset 0 of its own buffer, so writing the
        // name first at offset 0 of the same buffer copies it onto itself and a new buffer is copied from the old one.
        entry.Set(name, value);
        _insertAt = (_insertAt + 1) % _slots.Length;
        Count++;
        Size += (int)entrySize;
    }

    /// <summary>Changes the maximum size, evicting the oldest entries until the table fits (section 4.3).</summary>
    public void Resize(int maxSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxSize);
        while (Size > maxSize)
        {
            RemoveOldest();
        }

        MaxSize = maxSize;
        var slots = SlotsFor(maxSize);
        if (slots > _slots.Length)
        {
            var grown = new Entry?[slots];
            for (var i = 0; i < Count; i++)
            {
                grown[i] = _slots[SlotOf(Count - 1 - i)];
            }

            _slots = grown;
            _insertAt = Count;
        }
    }

    private static int SlotsFor(int maxSize) => Math.Max(1, maxSize / EntryOverhead);

    private Entry GetEntry(int index)
    {
        Debug.Assert((uint)index < (uint)Count, "the decoder checks indices against Count");
        return _slots[SlotOf(index)]!;
    }

    // Slot of the entry 'index' positions older than the newest.
    private int SlotOf(int index)
    {
        var slot = _insertAt - 1 - index;
        return slot < 0 ? slot + _slots.Length : slot;
    }

    private void RemoveOldest()
    {
        Debug.Assert(Count > 0, "only a non-empty table is over its size");
        var oldest = _slots[SlotOf(Count - 1)]!;
        Size -= oldest.NameLength + oldest.ValueLength + EntryOverhead;
        Count--;
    }

    private void Clear()
    {
        Count = 0;
        Size = 0;
    }

    private sealed class Entry
    {
        private byte[] _buffer = [];

        public int NameLength { get; private set; }

        public int ValueLength { get; private set; }

        public ReadOnlySpan<byte> Name => _buffer.AsSpan(0, NameLength);

        public ReadOnlySpan<byte> Value => _buffer.AsSpan(NameLength, ValueLength);

        public void Set(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
        {
            var needed = name.Length + value.Length;
            if (_buffer.Length < needed)
            {
                var grown = new byte[Math.Max(needed, _buffer.Length * 2)];
                name.CopyTo(grown);
                _buffer = grown;
            }
            else
            {
                name.CopyTo(_buffer);
            }

            value.CopyTo(_buffer.AsSpan(name.Length));
            NameLength = name.Length;
            ValueLength = value.Length;
        }
    }
}
