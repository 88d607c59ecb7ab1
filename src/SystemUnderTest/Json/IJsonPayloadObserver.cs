using System.Buffers;

namespace SystemUnderTest.Json;

/// <summary>Sees the exact UTF-8 JSON a strategy wrote, before it is read back (tests compare the bytes).</summary>
public interface IJsonPayloadObserver
{
    /// <summary>Called once per round trip with the serialized bytes, valid only during the call.</summary>
    void OnSerialized(in ReadOnlySequence<byte> utf8Json);
}
