using System.Globalization;

namespace SystemUnderTest.IO;

/// <summary>What one run of <see cref="FileCopyLoop"/> did, in the seed's shape.</summary>
internal readonly record struct FileCopyResult(TimeSpan Elapsed, int Copies, long Bytes, int Gen0, int Gen1, int Gen2)
{
    /// <summary>Bytes copied per second over <see cref="Elapsed"/>.</summary>
    public double BytesPerSecond => Elapsed <= TimeSpan.Zero ? 0 : Bytes / Elapsed.TotalSeconds;

    /// <summary>The seed's line: <c>Elapsed=… Gen0=… Gen1=… Gen2=…</c>, then copies and MB/s.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"Elapsed={Elapsed} Gen0={Gen0} Gen1={Gen1} Gen2={Gen2} Copies={Copies} Bytes={Bytes} MBPerSecond={BytesPerSecond / (1024 * 1024):0}");
}
