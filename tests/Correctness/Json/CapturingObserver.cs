using System.Buffers;
using SystemUnderTest.Json;

namespace Correctness.Json;

/// <summary>Copies the bytes a strategy serialized, so tests can compare them.</summary>
internal sealed class CapturingObserver : IJsonPayloadObserver
{
    public byte[] Json { get; private set; } = [];

    public void OnSerialized(in ReadOnlySequence<byte> utf8Json) => Json = utf8Json.ToArray();
}
