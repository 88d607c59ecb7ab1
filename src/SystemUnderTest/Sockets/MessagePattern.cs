using System.Buffers.Binary;

namespace SystemUnderTest.Sockets;

/// <summary>
/// The bytes of message <c>n</c>: its number in the first 4 bytes (big-endian), then a fixed pattern, so a
/// receiver can tell a lost, repeated or reordered piece from the right one without allocating.
/// </summary>
internal static class MessagePattern
{
    /// <summary>Smallest message: room for the number.</summary>
    public const int MinSize = 4;

    /// <summary>Fills <paramref name="message"/> with the pattern; call once per buffer.</summary>
    public static void FillBody(Span<byte> message)
    {
        for (var i = MinSize; i < message.Length; i++)
        {
            message[i] = (byte)((i * 31) + 7);
        }
    }

    /// <summary>Stamps message number <paramref name="number"/> into a buffer already filled by <see cref="FillBody"/>.</summary>
    public static void Stamp(Span<byte> message, long number) => BinaryPrimitives.WriteInt32BigEndian(message, unchecked((int)number));

    /// <summary>True when <paramref name="received"/> is message <paramref name="number"/>.</summary>
    public static bool IsMessage(ReadOnlySpan<byte> received, ReadOnlySpan<byte> expectedBody, long number) =>
        BinaryPrimitives.ReadInt32BigEndian(received) == unchecked((int)number) && received[MinSize..].SequenceEqual(expectedBody[MinSize..]);
}
