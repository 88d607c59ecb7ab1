using System.Net.Sockets;
using SystemUnderTest.Sockets.Echo;

namespace Correctness.Sockets.Echo;

public sealed class EchoServerTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(1_000)]
    [InlineData(4_096)]
    public async Task Echoes_a_frame_of_any_allowed_size(int payloadBytes)
    {
        await using var echo = EchoServerFixture.Start();
        using var client = await echo.ConnectAsync(payloadBytes);

        await client.EchoAsync(Ct);

        // The counter moves once the echo's send has completed, which can be just after the client has it.
        (await EchoServerFixture.EventuallyAsync(() => echo.Server.Counters.FramesEchoed == 1)).Should().BeTrue($"1 frame was echoed (counter at {echo.Server.Counters.FramesEchoed})");
    }

    [Fact]
    public async Task Echoes_many_frames_on_one_connection()
    {
        await using var echo = EchoServerFixture.Start();
        using var client = await echo.ConnectAsync();

        for (var i = 0; i < 1_000; i++)
        {
            await client.EchoAsync(Ct);
        }

        // The counter moves once the echo's send has completed, which can be just after the client has it.
        (await EchoServerFixture.EventuallyAsync(() => echo.Server.Counters.FramesEchoed == 1_000)).Should().BeTrue($"1,000 frames were echoed (counter at {echo.Server.Counters.FramesEchoed})");
    }

    [Fact]
    public async Task Echoes_pipelined_frames_in_order()
    {
        await using var echo = EchoServerFixture.Start();
        using var client = await echo.ConnectAsync(0);
        var frames = Enumerable.Range(1, 50).SelectMany(i => EchoServerFixture.Header(i).Concat(Enumerable.Repeat((byte)i, i))).ToArray();

        await client.Socket.SendAsync(frames, SocketFlags.None, Ct);
        var echoed = new byte[frames.Length];
        for (var received = 0; received < echoed.Length;)
        {
            received += await client.Socket.ReceiveAsync(echoed.AsMemory(received), SocketFlags.None, Ct);
        }

        echoed.Should().Equal(frames);
        // The counter moves once the echo's send has completed, which can be just after the client has it.
        (await EchoServerFixture.EventuallyAsync(() => echo.Server.Counters.FramesEchoed == 50)).Should().BeTrue($"50 frames were echoed (counter at {echo.Server.Counters.FramesEchoed})");
    }

    public static TheoryData<string, EchoCloseReason> Faults => new()
    {
        { "length over the maximum", EchoCloseReason.FrameTooLarge },
        { "negative length", EchoCloseReason.NegativeLength },
        { "disconnect mid-frame", EchoCloseReason.TruncatedFrame },
        { "truncated length prefix", EchoCloseReason.TruncatedFrame },
        { "reset mid-frame", EchoCloseReason.Reset },
        { "idle past the read timeout", EchoCloseReason.ReadTimeout },
        { "stops reading", EchoCloseReason.WriteTimeout },
    };

    [Theory]
    [MemberData(nameof(Faults))]
    public async Task A_bad_peer_loses_only_its_own_connection(string fault, EchoCloseReason reason)
    {
        // Long enough that the good connection, echoing every 50 ms, never idles past them on a busy machine.
        await using var echo = EchoServerFixture.Start(o =>
        {
            o.ReadTimeout = TimeSpan.FromMilliseconds(1_500);
            o.WriteTimeout = TimeSpan.FromMilliseconds(1_500);
        });
        using var good = await echo.ConnectAsync();
        await good.EchoAsync(Ct);
        var bad = await echo.ConnectAsync();

        // The good connection keeps echoing all along, so it is never idle past the timeouts the fault relies on.
        using var faultDone = new CancellationTokenSource();
        var goodEchoes = 0;
        var keepAlive = Task.Run(async () =>
        {
            while (!faultDone.IsCancellationRequested)
            {
                await good.EchoAsync(Ct);
                goodEchoes++;
                await Task.Delay(50, Ct);
            }
        }, Ct);
        await MisbehaveAsync(fault, bad.Socket);
        var closed = await EchoServerFixture.EventuallyAsync(() => echo.Server.Counters.Closed(reason) == 1);
        // A fault that closes at once can be over before the keep-alive task's first echo on a loaded machine (the
        // suite runs its tests in parallel): what counts is that the good connection keeps echoing, so wait for it.
        var goodKeptEchoing = await EchoServerFixture.EventuallyAsync(() => Volatile.Read(ref goodEchoes) > 0);
        await faultDone.CancelAsync();
        await keepAlive;

        closed.Should().BeTrue($"'{fault}' closes that connection as {reason}");
        goodKeptEchoing.Should().BeTrue("the good connection echoes through another peer's fault");
        echo.Log.Lines.Should().Contain(l => l.Contains("dropped", StringComparison.Ordinal) && l.Contains(reason.ToString(), StringComparison.Ordinal));
        bad.Dispose();
        await good.EchoAsync(Ct);
        good.Dispose();
        (await EchoServerFixture.EventuallyAsync(() => echo.Server.Counters.OpenConnections == 0)).Should().BeTrue("no socket is left open");
    }

    [Fact]
    public async Task Connections_over_the_limit_are_closed_at_once()
    {
        await using var echo = EchoServerFixture.Start(o => o.MaxConnections = 2);
        using var first = await echo.ConnectAsync();
        using var second = await echo.ConnectAsync();
        await first.EchoAsync(Ct);
        await second.EchoAsync(Ct);
        using var third = await echo.ConnectAsync();

        var echoThird = async () => await third.EchoAsync(Ct);

        await echoThird.Should().ThrowAsync<Exception>().Where(e => e is EchoProtocolException || e is SocketException);
        echo.Server.Counters.Rejected.Should().Be(1);
        await first.EchoAsync(Ct);
    }

    [Fact]
    public async Task Stop_finishes_the_frame_in_flight_then_closes()
    {
        var echo = EchoServerFixture.Start(o => o.ShutdownTimeout = TimeSpan.FromSeconds(5));
        using var idle = await echo.ConnectAsync();
        await idle.EchoAsync(Ct);
        using var busy = await echo.ConnectAsync(0);
        await StartFrameAsync(busy.Socket, EchoServerFixture.Header(4).Concat(new byte[] { 1, 2 }).ToArray());

        var stop = echo.Server.StopAsync(Ct);
        // Not a synchronisation: time for a stop that did not wait for the frame to end (it has 5 s).
        await Task.Delay(200, Ct);
        stop.IsCompleted.Should().BeFalse("a frame is still in flight");
        await busy.Socket.SendAsync(new byte[] { 3, 4 }, SocketFlags.None, Ct);
        var echoed = new byte[8];
        for (var received = 0; received < echoed.Length;)
        {
            received += await busy.Socket.ReceiveAsync(echoed.AsMemory(received), SocketFlags.None, Ct);
        }

        await stop.WaitAsync(TimeSpan.FromSeconds(10), Ct);
        echoed.Should().Equal([0, 0, 0, 4, 1, 2, 3, 4]);
        (await busy.Socket.ReceiveAsync(new byte[1], SocketFlags.None, Ct)).Should().Be(0, "the connection closes after its frame");
        echo.Server.Counters.Closed(EchoCloseReason.ServerStopping).Should().Be(2);
        echo.Server.Counters.OpenConnections.Should().Be(0);
        await echo.DisposeAsync();
    }

    [Fact]
    public async Task Stop_aborts_a_frame_that_never_finishes_after_the_timeout()
    {
        var echo = EchoServerFixture.Start(o => o.ShutdownTimeout = TimeSpan.FromMilliseconds(300));
        using var stuck = await echo.ConnectAsync(0);
        await StartFrameAsync(stuck.Socket, EchoServerFixture.Header(100));

        await echo.Server.StopAsync(Ct).WaitAsync(TimeSpan.FromSeconds(10), Ct);

        echo.Server.Counters.OpenConnections.Should().Be(0);
        echo.Log.Lines.Should().Contain(l => l.Contains("aborting 1 connections", StringComparison.Ordinal));
        await echo.DisposeAsync();
    }

    [Theory]
    [InlineData("MaxFrameBytes")]
    [InlineData("Address")]
    [InlineData("ReadTimeout")]
    [InlineData("MaxConnections")]
    public void Bad_settings_are_rejected(string setting)
    {
        var options = new EchoServerOptions();
        switch (setting)
        {
            case "MaxFrameBytes": options.MaxFrameBytes = -1; break;
            case "Address": options.Address = "localhost:80"; break;
            case "ReadTimeout": options.ReadTimeout = TimeSpan.Zero; break;
            default: options.MaxConnections = 0; break;
        }

        var create = () => new EchoServer(options, new CapturingLogger<EchoServer>());

        create.Should().Throw<ArgumentException>().WithMessage($"*{setting}*");
    }

    // Sends a whole 1-byte frame and the start of the next one in one write, and returns once the whole frame's echo is
    // back: the service read both in one receive and echoed the first, so it is now inside the second frame (a wait of
    // a fixed time instead left it to the machine's load whether the service had read the start yet).
    private static async Task StartFrameAsync(Socket socket, byte[] partialFrame)
    {
        var whole = EchoServerFixture.Header(1).Append((byte)42).ToArray();
        await socket.SendAsync(whole.Concat(partialFrame).ToArray(), SocketFlags.None, Ct);
        var echoed = new byte[whole.Length];
        for (var received = 0; received < echoed.Length;)
        {
            var got = await socket.ReceiveAsync(echoed.AsMemory(received), SocketFlags.None, Ct);
            got.Should().BePositive("the service echoes the whole frame before the partial one");
            received += got;
        }

        echoed.Should().Equal(whole);
    }

    private static async Task MisbehaveAsync(string fault, Socket socket)
    {
        switch (fault)
        {
            case "length over the maximum":
                await socket.SendAsync(EchoServerFixture.Header(4_097), SocketFlags.None, Ct);
                break;
            case "negative length":
                await socket.SendAsync(new byte[] { 0x80, 0, 0, 1 }, SocketFlags.None, Ct);
                break;
            case "disconnect mid-frame":
                await socket.SendAsync(EchoServerFixture.Header(100).Concat(new byte[10]).ToArray(), SocketFlags.None, Ct);
                socket.Shutdown(SocketShutdown.Send);
                break;
            case "truncated length prefix":
                await socket.SendAsync(new byte[] { 0, 0 }, SocketFlags.None, Ct);
                socket.Shutdown(SocketShutdown.Send);
                break;
            case "reset mid-frame":
                await StartFrameAsync(socket, EchoServerFixture.Header(100).Concat(new byte[10]).ToArray());
                socket.LingerState = new LingerOption(true, 0);
                socket.Close();
                break;
            case "idle past the read timeout":
                break;
            default:
                // Frames go out, echoes are never read: once the socket buffers are full the service's send waits.
                socket.ReceiveBufferSize = 4096;
                var frame = EchoServerFixture.Header(4_096).Concat(new byte[4_096]).ToArray();
                using (var cts = new CancellationTokenSource(TimeSpan.FromSeconds(5)))
                {
                    try
                    {
                        while (!cts.IsCancellationRequested)
                        {
                            await socket.SendAsync(frame, SocketFlags.None, cts.Token);
                        }
                    }
                    catch (Exception e) when (e is OperationCanceledException or SocketException)
                    {
                        // The service dropped the connection (or our own send buffer filled up): done either way.
                    }
                }

                break;
        }
    }
}
