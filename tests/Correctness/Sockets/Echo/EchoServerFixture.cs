using System.Buffers.Binary;
using System.Diagnostics;
using Microsoft.Extensions.Logging;
using SystemUnderTest.Sockets.Echo;

namespace Correctness.Sockets.Echo;

/// <summary>An echo server on an ephemeral loopback port with the given settings, and what it logged.</summary>
internal sealed class EchoServerFixture : IAsyncDisposable
{
    private EchoServerFixture(EchoServer server, CapturingLogger<EchoServer> log)
    {
        Server = server;
        Log = log;
    }

    public EchoServer Server { get; }

    public CapturingLogger<EchoServer> Log { get; }

    public static EchoServerFixture Start(Action<EchoServerOptions>? configure = null)
    {
        var options = new EchoServerOptions { Port = 0, MaxFrameBytes = 4096, ReadTimeout = TimeSpan.FromSeconds(10), WriteTimeout = TimeSpan.FromSeconds(10) };
        configure?.Invoke(options);
        var log = new CapturingLogger<EchoServer>();
        var server = new EchoServer(options, log);
        server.Start();
        return new EchoServerFixture(server, log);
    }

    public Task<EchoClient> ConnectAsync(int payloadBytes = 1_000) => EchoClient.ConnectAsync(Server.EndPoint, payloadBytes, TestContext.Current.CancellationToken);

    /// <summary>The 4-byte length prefix of a frame.</summary>
    public static byte[] Header(int length)
    {
        var header = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(header, length);
        return header;
    }

    /// <summary>Waits, bounded, until <paramref name="condition"/> holds; false when it never did.</summary>
    public static async Task<bool> EventuallyAsync(Func<bool> condition, double seconds = 10)
    {
        var started = Stopwatch.GetTimestamp();
        while (!condition())
        {
            if (Stopwatch.GetElapsedTime(started).TotalSeconds > seconds)
            {
                return false;
            }

            await Task.Delay(20);
        }

        return true;
    }

    public async ValueTask DisposeAsync() => await Server.DisposeAsync();
}
