using SystemUnderTest.Cli;

namespace SystemUnderTest.IO;

/// <summary><c>file-copy [--size-mb 50] [--count 100]</c>: runs <see cref="FileCopyLoop"/> and prints the seed's line.</summary>
internal static class FileCopyCommand
{
    /// <summary>Runs the command; returns the process exit code.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        var sizeMb = CommandLine.IntOption(args, "--size-mb", 50);
        ArgumentOutOfRangeException.ThrowIfNegative(sizeMb, "--size-mb");
        var options = new FileCopyOptions { FileBytes = sizeMb * 1024L * 1024, Copies = CommandLine.IntOption(args, "--count", 100) };
        var result = await FileCopyLoop.RunAsync(options);
        await Console.Out.WriteLineAsync($"file-copy {sizeMb} MB x {options.Copies}: {result} on {Environment.ProcessorCount} cores");
        return 0;
    }
}
