namespace TextStats;

/// <summary>Counts the words of texts (runs of letters), case-insensitively.</summary>
public sealed class WordCounter
{
    private readonly Dictionary<string, int> _counts = new(StringComparer.OrdinalIgnoreCase);

#if BREAK_RETAINED
    private static readonly List<string> Seen = [];
#endif

    /// <summary>How many different words were counted.</summary>
    public int DistinctWords => _counts.Count;

    /// <summary>How often <paramref name="word"/> was counted.</summary>
    public int this[string word] => _counts.TryGetValue(word, out var count) ? count : 0;

    /// <summary>Counts the words of <paramref name="text"/>; a word seen before allocates nothing. Returns the words counted.</summary>
    public int Add(ReadOnlySpan<char> text)
    {
#if BREAK_ALLOCATION
        _ = text.ToString();
#endif
#if BREAK_RETAINED
        Seen.Add(text.ToString());
#endif
        var lookup = _counts.GetAlternateLookup<ReadOnlySpan<char>>();
        var words = 0;
        var i = 0;
        while (i < text.Length)
        {
            while (i < text.Length && !char.IsLetter(text[i]))
            {
                i++;
            }

            var start = i;
            while (i < text.Length && char.IsLetter(text[i]))
            {
                i++;
            }

            if (i > start)
            {
                var word = text[start..i];
                lookup[word] = lookup.TryGetValue(word, out var count) ? count + 1 : 1;
                words++;
#if BREAK_INSTRUCTIONS
                for (var k = 0; k < word.Length; k++)
                {
                    _checksum += char.ToUpperInvariant(word[k]);
                }
#endif
#if BREAK_GROWTH
                _checksum += text[..start].IndexOf('\u0001');
#endif
#if BREAK_CPUTIME
                _checksum += string.GetHashCode(word, StringComparison.OrdinalIgnoreCase);
#endif
#if BREAK_CPUTIME_QUARTER
                if ((words & 3) == 0)
                {
                    _checksum += string.GetHashCode(word, StringComparison.OrdinalIgnoreCase);
                }
#endif
#if BREAK_CPUTIME_THIRD
                if (words % 3 == 0)
                {
                    _checksum += string.GetHashCode(word, StringComparison.OrdinalIgnoreCase);
                }
#endif
#if BREAK_TOLIST_SNAPSHOT
                if (words % 16 == 0)
                {
                    // A snapshot of the words known so far, every 16 words, as a progress report might take one.
                    foreach (var known in _counts.Keys.ToList())
                    {
                        _checksum += known.Length;
                    }
                }
#endif
#if BREAK_FORMAT_PER_WORD
                _checksum += string.Format(System.Globalization.CultureInfo.InvariantCulture, "{0}:{1}", words, count).Length;
#endif
#if BREAK_JOIN_SNAPSHOT
                if (words % 16 == 0)
                {
                    // The last words known, joined for a log line every 16 words.
                    _checksum += string.Join(' ', _counts.Keys.Take(8)).Length;
                }
#endif
#if BREAK_ORDERBY_SNAPSHOT
                if (words % 16 == 0)
                {
                    // The most frequent word so far, found by sorting every 16 words.
                    _checksum += _counts.OrderByDescending(pair => pair.Value).First().Key.Length;
                }
#endif
            }
        }

        return words;
    }

    /// <summary>Counts the words of the file at <paramref name="path"/>, read through a 64 KiB buffer.</summary>
    public int AddFile(string path)
    {
#if BREAK_SYSCALLS
        const int BufferSize = 4 * 1024;
#else
        const int BufferSize = 64 * 1024;
#endif
        using var reader = new StreamReader(path, System.Text.Encoding.UTF8, detectEncodingFromByteOrderMarks: false, BufferSize);
        var buffer = new char[BufferSize];
        var words = 0;
        int read;
        var carry = 0;
        while ((read = reader.Read(buffer, carry, buffer.Length - carry)) > 0)
        {
            var filled = carry + read;
            var end = filled;
            while (end > 0 && char.IsLetter(buffer[end - 1]))
            {
                end--; // a word cut at the buffer's end is counted with the next read
            }

            if (end == 0)
            {
                end = filled;
            }

            words += Add(buffer.AsSpan(0, end));
            carry = filled - end;
            buffer.AsSpan(end, carry).CopyTo(buffer);
        }

        return words + Add(buffer.AsSpan(0, carry));
    }

    /// <summary>
    /// Counts the words of an open file, read at offsets (<see cref="RandomAccess"/>, one pread each), so one handle serves
    /// many counts: a file smaller than the buffer takes two reads, its bytes and the end.
    /// </summary>
    public int AddFrom(Microsoft.Win32.SafeHandles.SafeFileHandle file)
    {
        _fileBytes ??= new byte[64 * 1024];
        var filled = 0;
        int read;
        while ((read = RandomAccess.Read(file, _fileBytes.AsSpan(filled), filled)) > 0)
        {
            filled += read;
            if (filled == _fileBytes.Length)
            {
                Array.Resize(ref _fileBytes, _fileBytes.Length * 2);
            }
        }

        var text = _fileChars is { } chars && chars.Length >= filled ? chars : _fileChars = new char[_fileBytes.Length];
        return Add(text.AsSpan(0, System.Text.Encoding.UTF8.GetChars(_fileBytes.AsSpan(0, filled), text)));
    }

    private byte[]? _fileBytes;
    private char[]? _fileChars;

#if BREAK_INSTRUCTIONS || BREAK_GROWTH || BREAK_CPUTIME || BREAK_CPUTIME_QUARTER || BREAK_CPUTIME_THIRD || BREAK_TOLIST_SNAPSHOT || BREAK_FORMAT_PER_WORD || BREAK_JOIN_SNAPSHOT || BREAK_ORDERBY_SNAPSHOT
    private long _checksum;

    /// <summary>Work the deliberate breaks do.</summary>
    public long Checksum => _checksum;
#endif
}
