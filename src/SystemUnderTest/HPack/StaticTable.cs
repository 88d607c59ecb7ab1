using System.Diagnostics;

namespace SystemUnderTest.HPack;

/// <summary>The static table, RFC 7541 Appendix A: indices 1-61, shared by every connection.</summary>
internal static class StaticTable
{
    /// <summary>The number of entries; dynamic-table indices start at <c>Count + 1</c> (section 2.3.3).</summary>
    public const int Count = 61;

    // Index 0 is unused so that Entries[i] is entry i.
    private static readonly Entry[] Entries =
    [
        new([], []),
        new(":authority"u8.ToArray(), ""u8.ToArray()), // 1
        new(":method"u8.ToArray(), "GET"u8.ToArray()), // 2
        new(":method"u8.ToArray(), "POST"u8.ToArray()), // 3
        new(":path"u8.ToArray(), "/"u8.ToArray()), // 4
        new(":path"u8.ToArray(), "/index.html"u8.ToArray()), // 5
        new(":scheme"u8.ToArray(), "http"u8.ToArray()), // 6
        new(":scheme"u8.ToArray(), "https"u8.ToArray()), // 7
        new(":status"u8.ToArray(), "200"u8.ToArray()), // 8
        new(":status"u8.ToArray(), "204"u8.ToArray()), // 9
        new(":status"u8.ToArray(), "206"u8.ToArray()), // 10
        new(":status"u8.ToArray(), "304"u8.ToArray()), // 11
        new(":status"u8.ToArray(), "400"u8.ToArray()), // 12
        new(":status"u8.ToArray(), "404"u8.ToArray()), // 13
        new(":status"u8.ToArray(), "500"u8.ToArray()), // 14
        new("accept-charset"u8.ToArray(), ""u8.ToArray()), // 15
        new("accept-encoding"u8.ToArray(), "gzip, deflate"u8.ToArray()), // 16
        new("accept-language"u8.ToArray(), ""u8.ToArray()), // 17
        new("accept-ranges"u8.ToArray(), ""u8.ToArray()), // 18
        new("accept"u8.ToArray(), ""u8.ToArray()), // 19
        new("access-control-allow-origin"u8.ToArray(), ""u8.ToArray()), // 20
        new("age"u8.ToArray(), ""u8.ToArray()), // 21
        new("allow"u8.ToArray(), ""u8.ToArray()), // 22
        new("authorization"u8.ToArray(), ""u8.ToArray()), // 23
        new("cache-control"u8.ToArray(), ""u8.ToArray()), // 24
        new("content-disposition"u8.ToArray(), ""u8.ToArray()), // 25
        new("content-encoding"u8.ToArray(), ""u8.ToArray()), // 26
        new("content-language"u8.ToArray(), ""u8.ToArray()), // 27
        new("content-length"u8.ToArray(), ""u8.ToArray()), // 28
        new("content-location"u8.ToArray(), ""u8.ToArray()), // 29
        new("content-range"u8.ToArray(), ""u8.ToArray()), // 30
        new("content-type"u8.ToArray(), ""u8.ToArray()), // 31
        new("cookie"u8.ToArray(), ""u8.ToArray()), // 32
        new("date"u8.ToArray(), ""u8.ToArray()), // 33
        new("etag"u8.ToArray(), ""u8.ToArray()), // 34
        new("expect"u8.ToArray(), ""u8.ToArray()), // 35
        new("expires"u8.ToArray(), ""u8.ToArray()), // 36
        new("from"u8.ToArray(), ""u8.ToArray()), // 37
        new("host"u8.ToArray(), ""u8.ToArray()), // 38
        new("if-match"u8.ToArray(), ""u8.ToArray()), // 39
        new("if-modified-since"u8.ToArray(), ""u8.ToArray()), // 40
        new("if-none-match"u8.ToArray(), ""u8.ToArray()), // 41
        new("if-range"u8.ToArray(), ""u8.ToArray()), // 42
        new("if-unmodified-since"u8.ToArray(), ""u8.ToArray()), // 43
        new("last-modified"u8.ToArray(), ""u8.ToArray()), // 44
        new("link"u8.ToArray(), ""u8.ToArray()), // 45
        new("location"u8.ToArray(), ""u8.ToArray()), // 46
        new("max-forwards"u8.ToArray(), ""u8.ToArray()), // 47
        new("proxy-authenticate"u8.ToArray(), ""u8.ToArray()), // 48
        new("proxy-authorization"u8.ToArray(), ""u8.ToArray()), // 49
        new("range"u8.ToArray(), ""u8.ToArray()), // 50
        new("referer"u8.ToArray(), ""u8.ToArray()), // 51
        new("refresh"u8.ToArray(), ""u8.ToArray()), // 52
        new("retry-after"u8.ToArray(), ""u8.ToArray()), // 53
        new("server"u8.ToArray(), ""u8.ToArray()), // 54
        new("set-cookie"u8.ToArray(), ""u8.ToArray()), // 55
        new("strict-transport-security"u8.ToArray(), ""u8.ToArray()), // 56
        new("transfer-encoding"u8.ToArray(), ""u8.ToArray()), // 57
        new("user-agent"u8.ToArray(), ""u8.ToArray()), // 58
        new("vary"u8.ToArray(), ""u8.ToArray()), // 59
        new("via"u8.ToArray(), ""u8.ToArray()), // 60
        new("www-authenticate"u8.ToArray(), ""u8.ToArray()), // 61
    ];

    // Entry indices grouped by name length, for the encoder's name lookup (the longest name has 27 bytes).
    private static readonly int[][] IndicesByNameLength = BuildNameIndex();

    /// <summary>The name of entry <paramref name="index"/> (1-61).</summary>
    public static ReadOnlySpan<byte> GetName(int index) => Entries[index].Name;

    /// <summary>The value of entry <paramref name="index"/> (1-61).</summary>
    public static ReadOnlySpan<byte> GetValue(int index) => Entries[index].Value;

    /// <summary>
    /// Finds <paramref name="name"/>: returns the first entry with that name (0 when none) and, in
    /// <paramref name="fullMatchIndex"/>, the entry with that name and value (0 when none).
    /// </summary>
    public static int FindName(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, out int fullMatchIndex)
    {
        fullMatchIndex = 0;
        if (name.Length >= IndicesByNameLength.Length)
        {
            return 0;
        }

        foreach (var index in IndicesByNameLength[name.Length])
        {
            if (!name.SequenceEqual(Entries[index].Name))
            {
                continue;
            }

            // Entries with one name are adjacent in the table.
            for (var i = index; i <= Count && name.SequenceEqual(Entries[i].Name); i++)
            {
                if (value.SequenceEqual(Entries[i].Value))
                {
                    fullMatchIndex = i;
                    break;
                }
            }

            return index;
        }

        return 0;
    }

    private static int[][] BuildNameIndex()
    {
        var maxLength = 0;
        for (var i = 1; i <= Count; i++)
        {
            maxLength = Math.Max(maxLength, Entries[i].Name.Length);
        }

        var lists = new List<int>[maxLength + 1];
        for (var length = 0; length <= maxLength; length++)
        {
            lists[length] = [];
        }

        for (var i = 1; i <= Count; i++)
        {
            // Only the first entry of each name: FindName walks the adjacent ones.
            if (i == 1 || !Entries[i].Name.AsSpan().SequenceEqual(Entries[i - 1].Name))
            {
                lists[Entries[i].Name.Length].Add(i);
            }
        }

        Debug.Assert(lists[0].Count == 0, "no static name is empty");
        return Array.ConvertAll(lists, list => list.ToArray());
    }

    private sealed record Entry(byte[] Name, byte[] Value);
}
