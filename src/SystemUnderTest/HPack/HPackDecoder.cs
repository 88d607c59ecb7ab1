using System.Diagnostics;

namespace SystemUnderTest.HPack;

/// <summary>
/// A streaming HPACK decoder (RFC 7541) for one connection's header blocks. A block may arrive in any number of
/// fragments (HEADERS + CONTINUATION); each header goes to an <see cref="IHPackHeaderHandler"/> as spans. String
/// literals are handed out as slices of the input; a literal is copied only when it straddles two fragments or is
/// Huffman-coded, into buffers that grow by doubling and are reused, so a warm decoder does not allocate.
/// </summary>
/// <remarks>
/// Each state's parser consumes as much of the fragment as that state can (a whole string literal by its length
/// prefix, not byte by byte), so the dispatch on the state happens once per field, not once per byte.
/// </remarks>
internal sealed class HPackDecoder
{
    // First byte of each representation, RFC 7541 section 6:
    //   1xxxxxxx  indexed header field (6.1), 7-bit index
    //   01xxxxxx  literal with incremental indexing (6.2.1), 6-bit name index
    //   001xxxxx  dynamic table size update (6.3), 5-bit size
    //   0001xxxx  literal never indexed (6.2.3), 4-bit name index
    //   0000xxxx  literal without indexing (6.2.2), 4-bit name index
    private const byte IndexedMask = 0x80;
    private const byte IncrementalIndexingMask = 0xC0;
    private const byte IncrementalIndexingPattern = 0x40;
    private const byte SizeUpdateMask = 0xE0;
    private const byte SizeUpdatePattern = 0x20;

    // String literal, section 5.2: H bit then a 7-bit length.
    private const byte HuffmanMask = 0x80;

    private readonly HPackDecoderOptions _options;
    private readonly DynamicTable _table;
    private int _maxDynamicTableSizeLimit;

    private State _state;
    private IntegerDecoder _integer;
    private bool _indexing;
    private int _nameIndex;
    private bool _huffman;
    private int _stringLength;

    // A literal that straddles fragments is gathered here (still Huffman-coded if it was).
    private byte[] _literal = [];
    private int _literalLength;

    // The name when it could not stay a slice of the input (Huffman-decoded, straddled, or outliving its fragment).
    private byte[] _name = [];
    private int _nameLength;
    private bool _nameBuffered;
    private int _nameStart;

    // Huffman-decoded values.
    private byte[] _value = [];

    private bool _headerSeenInBlock;
    private long _representationStart;
    private long _blockOffset;
    private long _headerListSize;

    /// <summary>Creates a decoder with <paramref name="options"/> (defaults when null).</summary>
    public HPackDecoder(HPackDecoderOptions? options = null)
    {
        _options = options ?? new HPackDecoderOptions();
        _options.Validate();
        _maxDynamicTableSizeLimit = _options.MaxDynamicTableSize;
        _table = new DynamicTable(_options.MaxDynamicTableSize);
    }

    private enum State : byte
    {
        Ready,
        IndexedIndex,
        LiteralNameIndex,
        SizeUpdate,
        NameLength,
        NameLengthContinue,
        Name,
        ValueLength,
        ValueLengthContinue,
        Value,
    }

    /// <summary>The dynamic table's current maximum size.</summary>
    public int DynamicTableMaxSize => _table.MaxSize;

    /// <summary>The dynamic table's current size (name + value + 32 per entry).</summary>
    public int DynamicTableSize => _table.Size;

    /// <summary>
    /// Applies a new SETTINGS_HEADER_TABLE_SIZE once the peer acknowledged it: later size updates may not exceed
    /// it, and a table larger than it shrinks at once.
    /// </summary>
    public void SetMaxDynamicTableSizeLimit(int maxSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxSize);
        _maxDynamicTableSizeLimit = maxSize;
        if (_table.MaxSize > maxSize)
        {
            _table.Resize(maxSize);
        }
    }

    /// <summary>
    /// Decodes one fragment of a header block. <paramref name="endHeaders"/> marks the block's last fragment
    /// (END_HEADERS); a block that ends inside a representation is a decoding error.
    /// </summary>
    /// <exception cref="HPackDecodingException">The input breaks RFC 7541 or a limit of the options.</exception>
    public void Decode(ReadOnlySpan<byte> fragment, bool endHeaders, IHPackHeaderHandler handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        var i = 0;
        while (i < fragment.Length)
        {
            switch (_state)
            {
                case State.Ready:
                    ParseRepresentation(fragment, ref i, handler);
                    break;
                case State.IndexedIndex:
                case State.LiteralNameIndex:
                case State.SizeUpdate:
                case State.NameLengthContinue:
                case State.ValueLengthContinue:
                    ParseIntegerContinuation(fragment, ref i, handler);
                    break;
                case State.NameLength:
                case State.ValueLength:
                    ParseStringLength(fragment, ref i, handler);
                    break;
                case State.Name:
                case State.Value:
                    ParseString(fragment, ref i, handler);
                    break;
                default:
                    Debug.Fail("every state is handled");
                    throw new InvalidOperationException($"Unknown decoder state {_state}.");
            }
        }

        // The value of this header continues in the next fragment: the name must outlive this one.
        if (_state is State.ValueLength or State.ValueLengthContinue or State.Value && _nameIndex == 0 && !_nameBuffered)
        {
            BufferName(fragment.Slice(_nameStart, _nameLength));
        }

        _blockOffset += fragment.Length;
        if (endHeaders)
        {
            if (_state != State.Ready)
            {
                var what = _state is State.Name or State.Value
                    ? $"a string literal of {_stringLength} bytes has only {_literalLength}"
                    : $"it ends inside a representation ({_state})";
                ResetBlock();
                throw new HPackDecodingException($"Truncated header block: {what}", _blockOffsetAtError);
            }

            ResetBlock();
        }
    }

    private long _blockOffsetAtError;

    private void ResetBlock()
    {
        _blockOffsetAtError = _blockOffset;
        _state = State.Ready;
        _headerSeenInBlock = false;
        _blockOffset = 0;
        _headerListSize = 0;
        _literalLength = 0;
    }

    private void ParseRepresentation(ReadOnlySpan<byte> fragment, ref int i, IHPackHeaderHandler handler)
    {
        _representationStart = _blockOffset + i;
        var b = fragment[i++];
        int value;
        if ((b & IndexedMask) != 0)
        {
            _headerSeenInBlock = true;
            if (_integer.BeginTryDecode(b, 7, out value))
            {
                OnIndexedHeader(value, handler);
            }
            else
            {
                _state = State.IndexedIndex;
            }
        }
        else if ((b & SizeUpdateMask) == SizeUpdatePattern)
        {
            if (_headerSeenInBlock)
            {
                throw Error("Dynamic table size update after the first header field of the block (RFC 7541 4.2)", i - 1);
            }

            if (_integer.BeginTryDecode(b, 5, out value))
            {
                OnSizeUpdate(value);
            }
            else
            {
                _state = State.SizeUpdate;
            }
        }
        else
        {
            _headerSeenInBlock = true;
            _indexing = (b & IncrementalIndexingMask) == IncrementalIndexingPattern;
            var prefix = _indexing ? 6 : 4;
            if (_integer.BeginTryDecode(b, prefix, out value))
            {
                OnLiteralNameIndex(value);
            }
            else
            {
                _state = State.LiteralNameIndex;
            }
        }
    }

    private void ParseIntegerContinuation(ReadOnlySpan<byte> fragment, ref int i, IHPackHeaderHandler handler)
    {
        while (i < fragment.Length)
        {
            var at = i;
            var status = _integer.TryDecode(fragment[i++], out var value);
            if (status == IntegerDecoder.Status.NeedMore)
            {
                continue;
            }

            if (status == IntegerDecoder.Status.Overflow)
            {
                throw Error("Integer exceeds 2^31-1 (RFC 7541 5.1)", at);
            }

            switch (_state)
            {
                case State.IndexedIndex:
                    _state = State.Ready;
                    OnIndexedHeader(value, handler);
                    break;
                case State.LiteralNameIndex:
                    _state = State.Ready;
                    OnLiteralNameIndex(value);
                    break;
                case State.SizeUpdate:
                    _state = State.Ready;
                    OnSizeUpdate(value);
                    break;
                case State.NameLengthContinue:
                    OnStringLength(value, isName: true, at, fragment, handler);
                    break;
                case State.ValueLengthContinue:
                    OnStringLength(value, isName: false, at, fragment, handler);
                    break;
                default:
                    Debug.Fail("only integer states continue integers");
                    throw new InvalidOperationException($"Unexpected state {_state}.");
            }

            return;
        }
    }

    private void ParseStringLength(ReadOnlySpan<byte> fragment, ref int i, IHPackHeaderHandler handler)
    {
        var isName = _state == State.NameLength;
        var at = i;
        var b = fragment[i++];
        _huffman = (b & HuffmanMask) != 0;
        if (_integer.BeginTryDecode(b, 7, out var length))
        {
            OnStringLength(length, isName, at, fragment, handler);
        }
        else
        {
            _state = isName ? State.NameLengthContinue : State.ValueLengthContinue;
        }
    }

    private void OnStringLength(int length, bool isName, int at, ReadOnlySpan<byte> fragment, IHPackHeaderHandler handler)
    {
        if (length > _options.MaxStringLiteralLength)
        {
            throw Error($"String literal of {length} bytes exceeds MaxStringLiteralLength {_options.MaxStringLiteralLength}", at);
        }

        _stringLength = length;
        _literalLength = 0;
        if (isName)
        {
            _state = State.Name;
        }
        else
        {
            _state = State.Value;
        }

        if (length == 0)
        {
            // Complete now: an empty string at the end of a fragment must not leave the block looking truncated.
            OnString([], fromInput: false, fragment, at, handler);
        }
    }

    private void ParseString(ReadOnlySpan<byte> fragment, ref int i, IHPackHeaderHandler handler)
    {
        var available = fragment.Length - i;
        var at = i;
        if (_literalLength == 0 && available >= _stringLength)
        {
            // The common case: the whole literal is in this fragment and is handed out as a slice.
            var literal = fragment.Slice(i, _stringLength);
            i += _stringLength;
            OnString(literal, fromInput: true, fragment, at, handler);
            return;
        }

        var take = Math.Min(available, _stringLength - _literalLength);
        EnsureCapacity(ref _literal, _stringLength, _literalLength);
        fragment.Slice(i, take).CopyTo(_literal.AsSpan(_literalLength));
        _literalLength += take;
        i += take;
        if (_literalLength == _stringLength)
        {
            OnString(_literal.AsSpan(0, _stringLength), fromInput: false, fragment, at, handler);
        }
    }

    private void OnString(ReadOnlySpan<byte> literal, bool fromInput, ReadOnlySpan<byte> fragment, int at, IHPackHeaderHandler handler)
    {
        _literalLength = 0;
        if (_state == State.Name)
        {
            if (_huffman)
            {
                _nameLength = DecodeHuffman(literal, ref _name, at);
                _nameBuffered = true;
            }
            else if (fromInput)
            {
                _nameStart = (int)(literal.IsEmpty ? 0 : at);
                _nameLength = literal.Length;
                _nameBuffered = false;
            }
            else
            {
                BufferName(literal);
            }

            _state = State.ValueLength;
            return;
        }

        Debug.Assert(_state == State.Value, "strings are names or values");
        var value = literal;
        if (_huffman)
        {
            var length = DecodeHuffman(literal, ref _value, at);
            value = _value.AsSpan(0, length);
        }

        _state = State.Ready;
        ReadOnlySpan<byte> name;
        if (_nameIndex == 0)
        {
            name = _nameBuffered ? _name.AsSpan(0, _nameLength) : fragment.Slice(_nameStart, _nameLength);
        }
        else if (_nameIndex <= StaticTable.Count)
        {
            name = StaticTable.GetName(_nameIndex);
        }
        else
        {
            name = _table.GetName(_nameIndex - StaticTable.Count - 1);
        }

        AddToHeaderListSize(name.Length, value.Length);
        if (_nameIndex is > 0 and <= StaticTable.Count)
        {
            handler.OnStaticIndexedHeader(_nameIndex, value);
        }
        else
        {
            handler.OnHeader(name, value);
        }

        if (_indexing)
        {
            _table.Insert(name, value);
        }
    }

    private void OnIndexedHeader(int index, IHPackHeaderHandler handler)
    {
        if (index == 0)
        {
            throw RepresentationError("Indexed header field with index 0 (RFC 7541 6.1)");
        }

        if (index <= StaticTable.Count)
        {
            AddToHeaderListSize(StaticTable.GetName(index).Length, StaticTable.GetValue(index).Length);
            handler.OnStaticIndexedHeader(index);
            return;
        }

        var dynamicIndex = CheckDynamicIndex(index);
        var name = _table.GetName(dynamicIndex);
        var value = _table.GetValue(dynamicIndex);
        AddToHeaderListSize(name.Length, value.Length);
        handler.OnHeader(name, value);
    }

    private void OnLiteralNameIndex(int index)
    {
        _nameIndex = index;
        if (index == 0)
        {
            _state = State.NameLength;
            return;
        }

        if (index > StaticTable.Count)
        {
            CheckDynamicIndex(index);
        }

        _state = State.ValueLength;
    }

    private void OnSizeUpdate(int size)
    {
        if (size > _maxDynamicTableSizeLimit)
        {
            throw RepresentationError($"Dynamic table size update to {size} exceeds the announced limit {_maxDynamicTableSizeLimit} (RFC 7541 6.3)");
        }

        _table.Resize(size);
    }

    private int CheckDynamicIndex(int index)
    {
        var dynamicIndex = index - StaticTable.Count - 1;
        if (dynamicIndex >= _table.Count)
        {
            throw RepresentationError($"Index {index} is past the static table and the {_table.Count} dynamic entries (RFC 7541 2.3.3)");
        }

        return dynamicIndex;
    }

    private void AddToHeaderListSize(int nameLength, int valueLength)
    {
        _headerListSize += nameLength + valueLength + DynamicTable.EntryOverhead;
        if (_headerListSize > _options.MaxHeaderListSize)
        {
            throw RepresentationError($"Header list size {_headerListSize} exceeds MaxHeaderListSize {_options.MaxHeaderListSize}");
        }
    }

    private int DecodeHuffman(ReadOnlySpan<byte> encoded, ref byte[] destination, int at)
    {
        EnsureCapacity(ref destination, Huffman.GetMaxDecodedLength(encoded.Length), 0);
        var status = Huffman.TryDecode(encoded, destination, out var written);
        return status switch
        {
            Huffman.DecodeStatus.Done => written,
            Huffman.DecodeStatus.EndOfStringSymbol => throw Error("Huffman-coded string contains the EOS symbol (RFC 7541 5.2)", at),
            Huffman.DecodeStatus.BadPadding => throw Error("Huffman padding is longer than 7 bits or not all ones (RFC 7541 5.2)", at),
            _ => throw new InvalidOperationException($"Huffman buffer sized by GetMaxDecodedLength was too small ({status})."),
        };
    }

    private void BufferName(ReadOnlySpan<byte> name)
    {
        EnsureCapacity(ref _name, name.Length, 0);
        name.CopyTo(_name);
        _nameLength = name.Length;
        _nameBuffered = true;
    }

    // Grows by doubling, keeping the first 'keep' bytes; steady state reuses the buffer.
    private static void EnsureCapacity(ref byte[] buffer, int needed, int keep)
    {
        if (buffer.Length >= needed)
        {
            return;
        }

        var grown = new byte[Math.Max(needed, Math.Max(64, buffer.Length * 2))];
        buffer.AsSpan(0, keep).CopyTo(grown);
        buffer = grown;
    }

    // For errors about a whole representation: the offset of its first byte, which may be in an earlier fragment.
    private HPackDecodingException RepresentationError(string message)
    {
        var offset = _representationStart;
        ResetBlock();
        return new HPackDecodingException(message, offset);
    }

    private HPackDecodingException Error(string message, int fragmentOffset)
    {
        var offset = _blockOffset + fragmentOffset;
        ResetBlock();
        return new HPackDecodingException(message, offset);
    }
}
