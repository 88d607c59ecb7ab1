using PerfBudgets.Measuring;
using SystemUnderTest.IO;
using SystemUnderTest.Json;

namespace Cpu.Workloads;

/// <summary>
/// Workloads served one batch of operations at a time (<see cref="ServedWorkload"/>): the file copy, whose
/// asynchronous reads and writes run on pool threads, so that <see cref="CallgrindWorkloadHost"/> counts every thread of
/// the host; and the pooled JSON round trip of the 9-employee list, whose CPU time the Load suite compares between two
/// copies of this host (<see cref="PairedWorkloads"/>, the A/A run of the pairing itself).
/// </summary>
internal static class ServedWorkloads
{
    /// <summary>The names <c>--serve NAME</c> accepts.</summary>
    public static IReadOnlyList<string> Names { get; } = ["IO.FileCopy", "Json.RoundTrip.BufferWriter.List9"];

    /// <summary>Sets the named workload up, serves it on standard input and output until the input ends, and cleans up.</summary>
    public static void Serve(string name)
    {
        switch (name)
        {
            case "IO.FileCopy":
                ServeFileCopy();
                break;
            case "Json.RoundTrip.BufferWriter.List9":
                ServeJsonRoundTrip();
                break;
            default:
                throw new ArgumentException($"No served workload named '{name}'. Known: {string.Join(", ", Names)}.", nameof(name));
        }
    }

    // One operation: the 9-employee list serialized into a pooled buffer writer and read back, as the counted
    // Json.RoundTrip.BufferWriter.List9 does it.
    private static void ServeJsonRoundTrip()
    {
        var strategies = new JsonStrategies(new JsonPoolOptions());
        var strategy = strategies.All.Single(s => s.Name == "BufferWriter");
        var list = EmployeeData.List(9);
        List<Employee>? back = null;
        ServedWorkload.Serve(
            n =>
            {
                for (var i = 0; i < n; i++)
                {
                    back = strategy.RoundTrip(list, strategies.Json.List);
                }
            },
            () => CountedWorkloads.Check(back is { Count: 9 }, $"{back?.Count ?? 0} employees back"),
            Console.In,
            Console.Out);
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
                        // On the task's kernel event: GetResult's spin before it blocks would be counted.
                        ServedWorkload.Wait(FileCopyLoop.CopyAsync(source, destination, 81_920));
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
