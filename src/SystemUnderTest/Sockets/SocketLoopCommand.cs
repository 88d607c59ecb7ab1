using SystemUnderTest.Cli;

namespace SystemUnderTest.Sockets;

/// <summary>
/// <c>socket-loop [--count 1000000] [--size 1000] [--mode saea|valuetask|blocking]</c>: runs one loop and prints the
/// seed's line, <c>Elapsed=… Gen0=… Gen1=… Gen2=…</c>, with messages and messages per second.
/// </summary>
internal static class SocketLoopCommand
{
    /// <summary>Runs the command; returns the process exit code.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        var count = CommandLine.IntOption(args, "--count", 1_000_000);
        ArgumentOutOfRangeException.ThrowIfNegative(count, "--count");
        var options = new SocketLoopOptions { MessageSize = CommandLine.IntOption(args, "--size", 1_000) };
        var mode = CommandLine.StringOption(args, "--mode", "saea");
        SocketLoopResult result;
        try
        {
            result = mode switch
            {
                "saea" => RunSaea(options, count),
                "valuetask" => await RunValueTaskAsync(options, count),
                "blocking" => RunBlocking(options, count),
                _ => throw new ArgumentException($"--mode must be saea, valuetask or blocking, not '{mode}'."),
            };
        }
        catch (SocketLoopException e)
        {
            await Console.Error.WriteLineAsync($"socket-loop: {e.Message}");
            return 1;
        }

        await Console.Out.WriteLineAsync($"{mode}: {result} on {Environment.ProcessorCount} cores");
        return 0;
    }

    private static SocketLoopResult RunSaea(SocketLoopOptions options, int count)
    {
        using var loop = new SaeaLoop(options);
        return loop.Run(count);
    }

    private static async Task<SocketLoopResult> RunValueTaskAsync(SocketLoopOptions options, int count)
    {
        using var loop = new ValueTaskLoop(options);
        return await loop.RunAsync(count);
    }

    private static SocketLoopResult RunBlocking(SocketLoopOptions options, int count)
    {
        using var loop = new BlockingLoop(options);
        return loop.Run(count);
    }
}
