using System.Globalization;
using SystemUnderTest.Api;

namespace SystemUnderTest.Cli;

/// <summary>
/// The app's commands besides serving HTTP. <c>dotnet run --project src/SystemUnderTest -- NAME ...</c> runs one;
/// with no command name (or only host options such as <c>--urls</c>) the app serves.
/// </summary>
internal static class CommandLine
{
    private static readonly Dictionary<string, Func<string[], Task<int>>> Commands = new(StringComparer.Ordinal)
    {
        ["delay-compare"] = DelayCompareAsync,
        ["socket-loop"] = Sockets.SocketLoopCommand.RunAsync,
        ["file-copy"] = IO.FileCopyCommand.RunAsync,
    };

    /// <summary>True when the first argument names a command rather than a host option.</summary>
    public static bool IsCommand(string[] args) => args.Length > 0 && (Commands.ContainsKey(args[0]) || args[0] is "help" or "--help");

    /// <summary>Runs the named command and returns its exit code.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        if (args[0] is "help" or "--help")
        {
            await Console.Out.WriteLineAsync($"commands: {string.Join(", ", Commands.Keys)}; no command: serve HTTP (--urls to override http://127.0.0.1:5000)");
            return 0;
        }

        try
        {
            return await Commands[args[0]](args[1..]);
        }
        catch (ArgumentException e)
        {
            await Console.Error.WriteLineAsync($"{args[0]}: {e.Message}");
            return 2;
        }
    }

    /// <summary>Reads <c>--name value</c> as an integer, or <paramref name="fallback"/> when absent.</summary>
    public static int IntOption(string[] args, string name, int fallback)
    {
        var at = Array.IndexOf(args, name);
        if (at < 0)
        {
            return fallback;
        }

        return at + 1 < args.Length && int.TryParse(args[at + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var value)
            ? value
            : throw new ArgumentException($"{name} needs a whole number.");
    }

    /// <summary>Reads <c>--name value</c>, or <paramref name="fallback"/> when absent.</summary>
    public static string StringOption(string[] args, string name, string fallback)
    {
        var at = Array.IndexOf(args, name);
        if (at < 0)
        {
            return fallback;
        }

        return at + 1 < args.Length ? args[at + 1] : throw new ArgumentException($"{name} needs a value.");
    }

    private static async Task<int> DelayCompareAsync(string[] args)
    {
        var requests = IntOption(args, "--requests", 1_000);
        var ms = IntOption(args, "--ms", 100);
        var delay = TimeSpan.FromMilliseconds(ms);
        var asyncRun = await DelayComparison.RunAsyncDelaysAsync(requests, delay);
        var blockingRun = await DelayComparison.RunBlockingSleepsAsync(requests, delay);
        await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"Task.Delay:   {requests} x {ms} ms in {asyncRun.Elapsed.TotalMilliseconds:0} ms = {asyncRun.RequestsPerSecond:0} req/s"));
        await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"Thread.Sleep: {requests} x {ms} ms in {blockingRun.Elapsed.TotalMilliseconds:0} ms = {blockingRun.RequestsPerSecond:0} req/s"));
        await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"ratio: {asyncRun.RequestsPerSecond / blockingRun.RequestsPerSecond:0.0}x on {Environment.ProcessorCount} cores"));
        // One machine-readable line for scripts and the load suite.
        await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"result async-rps={asyncRun.RequestsPerSecond:0.###} blocking-rps={blockingRun.RequestsPerSecond:0.###}"));
        return 0;
    }
}
