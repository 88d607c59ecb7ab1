using System.ComponentModel.DataAnnotations;

namespace SystemUnderTest.Json;

/// <summary>
/// Every limit of the JSON pools and endpoints (configuration section <c>JsonPools</c>), in the manner of
/// RecyclableMemoryStreamManager.Options: one object, documented defaults, validated on start.
/// </summary>
public sealed class JsonPoolOptions
{
    /// <summary>The configuration section these options bind to.</summary>
    public const string SectionName = "JsonPools";

    /// <summary>
    /// Most buffers a pool keeps for reuse (default 64). Under more concurrent renters than this a pool still hands
    /// out buffers, but drops the surplus on return instead of keeping it, so it never grows without limit.
    /// </summary>
    [Range(1, 4_096)]
    public int MaximumRetainedBuffers { get; set; } = 64;

    /// <summary>Capacity a new buffer starts with (default 16 KiB: the 9-employee list fits without growing).</summary>
    [Range(256, 16 * 1024 * 1024)]
    public int InitialBufferBytes { get; set; } = 16 * 1024;

    /// <summary>
    /// Largest buffer a pool keeps (default 1 MiB). A buffer that grew past it for one big payload is dropped on
    /// return, so one 1,000-employee response does not pin a large array in every pooled slot.
    /// </summary>
    [Range(256, 256 * 1024 * 1024)]
    public int MaximumRetainedBufferBytes { get; set; } = 1024 * 1024;

    /// <summary>Largest request body the echo endpoint reads (default 1 MiB); larger bodies answer 400.</summary>
    [Range(1, 256 * 1024 * 1024)]
    public int MaximumRequestBodyBytes { get; set; } = 1024 * 1024;

    /// <summary>Deepest JSON nesting accepted (default 8; an employee list needs 3). Deeper input is a <c>JsonException</c>.</summary>
    [Range(3, 64)]
    public int MaximumDepth { get; set; } = 8;

    /// <summary>Longest string value accepted, in UTF-8 bytes (default 4,096). Longer strings are a <c>JsonException</c>.</summary>
    [Range(16, 16 * 1024 * 1024)]
    public int MaximumStringBytes { get; set; } = 4_096;

    /// <summary>Largest <c>count</c> of <c>GET /api/employees</c> (the data set's size, 1,000).</summary>
    [Range(1, EmployeeData.MaxCount)]
    public int MaximumListCount { get; set; } = EmployeeData.MaxCount;
}
