using System.Diagnostics;
using System.Net.Sockets;
using SystemUnderTest.Cli;
using SystemUnderTest.Sockets;

namespace Correctness.Sockets;

public sealed class SocketLoopTests
{
    private static readonly TimeSpan ShortTimeout = TimeSpan.FromSeconds(2);

    public static TheoryData<string, int> LoopsAndSizes => new()
    {
        { "saea", 4 }, { "saea", 1_000 }, { "saea", SocketLoopOptions.MaxMessageSize },
        { "valuetask", 4 }, { "valuetask", 1_000 }, { "valuetask", SocketLoopOptions.MaxMessageSize },
        { "blocking", 4 }, { "blocking", 1_000 }, { "blocking", SocketLoopOptions.MaxMessageSize },
    };

    public static TheoryData<string> Loops => ["saea", "valuetask", "blocking"];

    [Theory]
    [MemberData(nameof(LoopsAndSizes))]
    public async Task Loop_sends_and_verifies_every_message(string mode, int size)
    {
        using var loop = AnyLoop.Create(mode, new SocketLoopOptions { MessageSize = size });

        var result = await loop.RunAsync(2_000);

        result.Messages.Should().Be(2_000);
        result.Bytes.Should().Be(2_000L * size);
        result.Elapsed.Should().BePositive();
        result.ToString().Should().StartWith("Elapsed=").And.Contain("Gen0=").And.Contain("Gen1=").And.Contain("Gen2=");
    }

    [Theory]
    [MemberData(nameof(Loops))]
    public async Task Sender_shut_down_is_a_SocketLoopException(string mode)
    {
        using var loop = AnyLoop.Create(mode, new SocketLoopOptions { OperationTimeout = ShortTimeout });
        await loop.RunAsync(10);
        loop.Sender.Shutdown(SocketShutdown.Send);

        await AssertFailsQuickly(loop);
    }

    [Theory]
    [MemberData(nameof(Loops))]
    public async Task Receiver_reset_is_a_SocketLoopException(string mode)
    {
        using var loop = AnyLoop.Create(mode, new SocketLoopOptions { OperationTimeout = ShortTimeout });
        await loop.RunAsync(10);
        loop.Receiver.LingerState = new LingerOption(true, 0);
        loop.Receiver.Close();

        await AssertFailsQuickly(loop);
    }

    [Theory]
    [MemberData(nameof(Loops))]
    public async Task Sender_reset_is_a_SocketLoopException(string mode)
    {
        using var loop = AnyLoop.Create(mode, new SocketLoopOptions { OperationTimeout = ShortTimeout });
        await loop.RunAsync(10);
        loop.Sender.LingerState = new LingerOption(true, 0);
        loop.Sender.Close();

        await AssertFailsQuickly(loop);
    }

    [Theory]
    [InlineData(3, 10)]
    [InlineData(SocketLoopOptions.MaxMessageSize + 1, 10)]
    [InlineData(1_000, 0)]
    public void Bad_options_are_rejected(int size, int timeoutSeconds)
    {
        var options = new SocketLoopOptions { MessageSize = size, OperationTimeout = TimeSpan.FromSeconds(timeoutSeconds) };

        var create = () => new SaeaLoop(options);

        create.Should().Throw<ArgumentOutOfRangeException>();
    }

    [Theory]
    [InlineData("socket-loop", "--mode", "fast")]
    [InlineData("socket-loop", "--count", "many")]
    [InlineData("socket-loop", "--size", "2")]
    [InlineData("socket-loop", "--count", "-1")]
    public async Task Command_rejects_bad_arguments_with_exit_code_2(params string[] args)
    {
        (await CommandLine.RunAsync(args)).Should().Be(2);
    }

    [Fact]
    public async Task Command_runs_a_loop()
    {
        (await CommandLine.RunAsync(["socket-loop", "--count", "1000", "--mode", "valuetask"])).Should().Be(0);
    }

    private static async Task AssertFailsQuickly(AnyLoop loop)
    {
        var started = Stopwatch.GetTimestamp();
        var run = () => loop.RunAsync(1_000_000);

        (await run.Should().ThrowAsync<SocketLoopException>()).Which.Message.Should().NotBeNullOrWhiteSpace();
        Stopwatch.GetElapsedTime(started).Should().BeLessThan(ShortTimeout * 3, "every wait is bounded by the operation timeout");
    }

    /// <summary>The three loops behind one shape, so every test runs against each.</summary>
    private sealed class AnyLoop(IDisposable loop, Func<long, Task<SocketLoopResult>> run, Socket sender, Socket receiver) : IDisposable
    {
        public Socket Sender { get; } = sender;

        public Socket Receiver { get; } = receiver;

        public static AnyLoop Create(string mode, SocketLoopOptions options)
        {
            switch (mode)
            {
                case "saea":
                    var saea = new SaeaLoop(options);
                    return new AnyLoop(saea, n => Task.Run(() => saea.Run(n)), saea.Sender, saea.Receiver);
                case "valuetask":
                    var valueTask = new ValueTaskLoop(options);
                    return new AnyLoop(valueTask, valueTask.RunAsync, valueTask.Sender, valueTask.Receiver);
                default:
                    var blocking = new BlockingLoop(options);
                    return new AnyLoop(blocking, n => Task.Run(() => blocking.Run(n)), blocking.Sender, blocking.Receiver);
            }
        }

        public Task<SocketLoopResult> RunAsync(long messages) => run(messages);

        public void Dispose() => loop.Dispose();
    }
}
