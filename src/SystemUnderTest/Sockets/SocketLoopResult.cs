using System.Globalization;

namespace SystemUnderTest.Sockets;

/// <summary>What one run of a socket loop did, in the seed's shape.</summary>
/// <param name="Elapsed">Wall time of the measured loop (connection set-up excluded).</param>
/// <param name="Messages">Messages sent and received, each verified.</param>
/// <param name="Bytes">Payload bytes received.</param>
/// <param name="Gen0">Gen-0 collections during the loop.</param>
/// <param name="Gen1">Gen-1 collections during the loop.</param>
/// <param name="Gen2">Gen-2 collections during the loop.</param>
internal readonly record struct SocketLoopResult(TimeSpan Elapsed, long Messages, long Bytes, int Gen0, int Gen1, int Gen2)
{
    /// <summary>Messages per second over <see cref="Elapsed"/>.</summary>
    public double MessagesPerSecond => Elapsed <= TimeSpan.Zero ? 0 : Messages / Elapsed.TotalSeconds;

    /// <summary>The seed's line: <c>Elapsed=… Gen0=… Gen1=… Gen2=…</c>.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"Elapsed={Elapsed} Gen0={Gen0} Gen1={Gen1} Gen2={Gen2} Messages={Messages} Bytes={Bytes} MessagesPerSecond={MessagesPerSecond:0}");
}
