using PerfBudgets.Measuring;
using SystemUnderTest.IO;

namespace PerfGate.Tests.Cpu.Workloads;

/// <summary>
/// The in-process paths whose work runs on other threads than the caller's, served one operation at a time
/// (<see cref="ServedWorkload"/>) so that <see cref="CallgrindWorkloadHost"/> counts every thread of the host: the
/// file copy, whose asynchronous reads and writes run on pool threads.
/// </summary>
internal static class ServedWorkloads
{
    /// <summary>The names <c>--serve NAME</c> accepts.</summary>
    public static IReadOnlyList<string> Names { get; } = ["IO.FileCopy"];

    /// <summary>Sets the named workload up, serves it on standard input and output until the input ends, and cleans up.</summary>
    public static void Serve(string name)
    {
        switch (name)
        {
            case "IO.FileCopy":
                ServeFileCopy();
                break;
            default:
                throw new ArgumentException($"No served workload named '{name}'. Known: {string.Join(", ", Names)}.", nameof(name));
        }
    }

    // One operation: FileCopyLoop.CopyAsync of a 1 MiB file with an 80 KiB buffer, as the seed's loop copies it.
    private static void ServeFileCopy()
    {
        var folder = Directory.CreateTempSubdirectory("perfgate-counted-copy-");
        try
        {
            var source = Path.Combine(folder.FullName, "source.bin");
            var destination = Path.Combine(folder.FullName, "copy.bin");
            const int Size = 1024 * 1024;
            FileCopyLoop.GenerateAsync(source, Size).GetAwaiter().GetResult();
            var copies = 0;
            ServedWorkload.Serve(
                n =>
                {
                    for (var i = 0; i < n; i++)
                    {
                        FileCopyLoop.CopyAsync(source, destination, 81_920).GetAwaiter().GetResult();
                        copies++;
                    }
                },
                () => CountedWorkloads.Check(copies > 0 && new FileInfo(destination).Length == Size, $"{copies} copies of {Size} bytes"),
                Console.In,
                Console.Out);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }
}
