using System.Globalization;
using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using SystemUnderTest.IO;

namespace Alloc.IO;

public sealed class FileCopyAllocationTests
{
    [Fact]
    public async Task IO_FileCopy_BytesPerCopyGrowth()
    {
        var gate = SuiteGate.Current;
        var copies = gate.Book.IntParameter("Alloc.IO.FileCopy.Copies");
        var folder = Directory.CreateTempSubdirectory("perfgate-file-copy-test-");
        try
        {
            var small = await BytesPerCopyAsync(folder, 5, copies);
            var large = await BytesPerCopyAsync(folder, 50, copies);

            gate.Observe("IO.FileCopy.5MB.BytesPerCopy", small, "B/copy", $"smallest of 3 batches x {copies} copies, process-wide");
            gate.Observe("IO.FileCopy.50MB.BytesPerCopy", large, "B/copy", $"smallest of 3 batches x {copies} copies, process-wide");
            gate.Check("IO.FileCopy.BytesPerCopyGrowth", large - small, string.Create(CultureInfo.InvariantCulture,
                $"50 MB file {large:N0} B/copy - 5 MB file {small:N0} B/copy"),
                () => AllocationProfiler.PerOperationProcessWideAsync(() => new ValueTask(FileCopyLoop.CopyAsync(SourcePath(folder, 50), CopyPath(folder, 50), 81_920)))
                    .GetAwaiter().GetResult().ToAttribution());
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    private static string SourcePath(DirectoryInfo folder, int megabytes) => Path.Combine(folder.FullName, $"source-{megabytes}.bin");

    private static string CopyPath(DirectoryInfo folder, int megabytes) => Path.Combine(folder.FullName, $"copy-{megabytes}.bin");

    // Process-wide: asynchronous file I/O completes on pool threads. The Alloc assembly runs its tests one at a time;
    // anything else the process allocates meanwhile can only add bytes, so each size keeps its smallest batch.
    private static async Task<double> BytesPerCopyAsync(DirectoryInfo folder, int megabytes, int copies)
    {
        var source = SourcePath(folder, megabytes);
        var destination = CopyPath(folder, megabytes);
        await FileCopyLoop.GenerateAsync(source, megabytes * 1024L * 1024);
        await FileCopyLoop.CopyAsync(source, destination, 81_920);
        var best = double.MaxValue;
        for (var batch = 0; batch < 3; batch++)
        {
            var region = AllocationMeter.StartProcessWide();
            for (var i = 0; i < copies; i++)
            {
                await FileCopyLoop.CopyAsync(source, destination, 81_920);
            }

            best = Math.Min(best, region.Stop(copies).BytesPerOperation);
        }

        new FileInfo(destination).Length.Should().Be(megabytes * 1024L * 1024);
        return best;
    }
}
