using System.Diagnostics;

namespace SystemUnderTest.HPack;

/// <summary>The encoder's dynamic table: a FIFO linked list with a hash index and a pool of evicted entries.</summary>
internal sealed partial class HPackEncoder
{
    // Power of two; with 4 KiB tables (at most 128 entries) chains stay short.
    private const int BucketCount = 256;

    private readonly Entry?[] _buckets = new Entry?[BucketCount];
    private readonly Entry?[] _nameBuckets = new Entry?[BucketCount];
    private Entry? _oldest;
    private Entry? _newest;
    private Entry? _pool;
    private long _insertions;

    /// <summary>The dynamic table's maximum size in use.</summary>
    public int MaxDynamicTableSize { get; private set; }

    /// <summary>The dynamic table's size (name + value + 32 per entry).</summary>
    public int DynamicTableSize { get; private set; }

    /// <summary>The number of dynamic table entries.</summary>
    public int DynamicTableCount { get; private set; }

    // FNV-1a over the name, then continued over the value: cheap, allocation-free, and only a bucket selector.
    private static int Hash(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, out int nameHash)
    {
        var hash = 2166136261u;
        foreach (var b in name)
        {
            hash = (hash ^ b) * 16777619u;
        }

        nameHash = (int)hash;
        hash = (hash ^ 0xFF) * 16777619u;
        foreach (var b in value)
        {
            hash = (hash ^ b) * 16777619u;
        }

        return (int)hash;
    }

    private static int Bucket(int hash) => (int)((uint)(hash ^ (hash >>> 16)) & (BucketCount - 1));

    // HPACK index of an entry: 62 is the newest (section 2.3.3).
    private int IndexOf(Entry entry) => StaticTable.Count + 1 + (int)(_insertions - entry.InsertionNumber);

    private int FindDynamic(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, int hash)
    {
        for (var entry = _buckets[Bucket(hash)]; entry != null; entry = entry.NextInBucket)
        {
            if (entry.Hash == hash && entry.Name.SequenceEqual(name) && entry.Value.SequenceEqual(value))
            {
                return IndexOf(entry);
            }
        }

        return 0;
    }

    private int FindDynamicName(ReadOnlySpan<byte> name, int nameHash)
    {
        // Chains are newest first, so the first match has the smallest index.
        for (var entry = _nameBuckets[Bucket(nameHash)]; entry != null; entry = entry.NextInNameBucket)
        {
            if (entry.NameHash == nameHash && entry.Name.SequenceEqual(name))
            {
                return IndexOf(entry);
            }
        }

        return 0;
    }

    private void Insert(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, int hash, int nameHash, int entrySize)
    {
        if (entrySize > MaxDynamicTableSize)
        {
            EvictUntil(0);
            return;
        }

        EvictUntil(MaxDynamicTableSize - entrySize);
        var entry = _pool ?? new Entry();
        _pool = entry.Newer;
        entry.Set(name, value, hash, nameHash, ++_insertions);
        entry.Newer = null;
        if (_newest != null)
        {
            _newest.Newer = entry;
        }
        else
        {
            _oldest = entry;
        }

        _newest = entry;
        var bucket = Bucket(hash);
        entry.NextInBucket = _buckets[bucket];
        _buckets[bucket] = entry;
        var nameBucket = Bucket(nameHash);
        entry.NextInNameBucket = _nameBuckets[nameBucket];
        _nameBuckets[nameBucket] = entry;
        DynamicTableSize += entrySize;
        DynamicTableCount++;
    }

    private void EvictUntil(int size)
    {
        while (DynamicTableSize > size)
        {
            var oldest = _oldest;
            Debug.Assert(oldest != null, "a table over its size has entries");
            _oldest = oldest.Newer;
            if (_oldest == null)
            {
                _newest = null;
            }

            // The oldest entry is the last of its chains (chains are newest first), so it is found by walking.
            Unlink(_buckets, Bucket(oldest.Hash), oldest, nameChain: false);
            Unlink(_nameBuckets, Bucket(oldest.NameHash), oldest, nameChain: true);
            DynamicTableSize -= oldest.Size;
            DynamicTableCount--;
            oldest.Newer = _pool;
            oldest.NextInBucket = null;
            oldest.NextInNameBucket = null;
            _pool = oldest;
        }
    }

    private static void Unlink(Entry?[] buckets, int bucket, Entry entry, bool nameChain)
    {
        Entry? previous = null;
        for (var current = buckets[bucket]; current != null; current = nameChain ? current.NextInNameBucket : current.NextInBucket)
        {
            if (current == entry)
            {
                var next = nameChain ? current.NextInNameBucket : current.NextInBucket;
                if (previous == null)
                {
                    buckets[bucket] = next;
                }
                else if (nameChain)
                {
                    previous.NextInNameBucket = next;
                }
                else
                {
                    previous.NextInBucket = next;
                }

                return;
            }

            previous = current;
        }

        Debug.Fail("an entry in the table is in its chains");
    }

    private sealed class Entry
    {
        private byte[] _buffer = [];
        private int _nameLength;
        private int _valueLength;

        public int Hash { get; private set; }

        public int NameHash { get; private set; }

        public long InsertionNumber { get; private set; }

        public int Size => _nameLength + _valueLength + DynamicTable.EntryOverhead;

        // Toward the newest in the FIFO list; in the pool, the next free entry.
        public Entry? Newer { get; set; }

        public Entry? NextInBucket { get; set; }

        public Entry? NextInNameBucket { get; set; }

        public ReadOnlySpan<byte> Name => _buffer.AsSpan(0, _nameLength);

        public ReadOnlySpan<byte> Value => _buffer.AsSpan(_nameLength, _valueLength);

        public void Set(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, int hash, int nameHash, long insertionNumber)
        {
            var needed = name.Length + value.Length;
            if (_buffer.Length < needed)
            {
                _buffer = new byte[Math.Max(needed, _buffer.Length * 2)];
            }

            name.CopyTo(_buffer);
            value.CopyTo(_buffer.AsSpan(name.Length));
            _nameLength = name.Length;
            _valueLength = value.Length;
            Hash = hash;
            NameHash = nameHash;
            InsertionNumber = insertionNumber;
        }
    }
}
