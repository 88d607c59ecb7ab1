using System.Buffers;
using SystemUnderTest.Diagnostics;

namespace SystemUnderTest.IO;

/// <summary>
/// The seed's file copy loop: a generated file copied N times with asynchronous <see cref="FileStream"/>s
/// (<see cref="FileOptions.Asynchronous"/>) and <see cref="Stream.CopyToAsync(Stream, int, CancellationToken)"/>,
/// whose buffer comes from the shared array pool, so what a copy allocates does not grow with the file.
/// The temporary folder and every file in it are removed when the run ends, whether it finished, failed or was cancelled.
/// </summary>
internal static class FileCopyLoop
{
    /// <summary>Generates the source file, copies it <see cref="FileCopyOptions.Copies"/> times, and cleans up.</summary>
    public static async Task<FileCopyResult> RunAsync(FileCopyOptions options, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var folder = CreateFolder(options);
        try
        {
            var source = Path.Combine(folder.FullName, "source.bin");
            var destination = Path.Combine(folder.FullName, "copy.bin");
            await GenerateAsync(source, options.FileBytes, cancellationToken);
            var clock = RunClock.Start();
            for (var i = 0; i < options.Copies; i++)
            {
                await CopyAsync(source, destination, options.BufferBytes, cancellationToken);
            }

            return new FileCopyResult(clock.Elapsed, options.Copies, options.FileBytes * options.Copies,
                clock.Gen0, clock.Gen1, clock.Gen2);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    /// <summary>One copy: both files opened for asynchronous I/O, the data moved by <see cref="Stream.CopyToAsync(Stream, int, CancellationToken)"/>.</summary>
    public static async Task CopyAsync(string source, string destination, int bufferBytes, CancellationToken cancellationToken = default)
    {
        // bufferSize 0 turns off FileStream's own buffer: CopyToAsync already moves whole pooled blocks.
        await using var from = new FileStream(source, FileMode.Open, FileAccess.Read, FileShare.Read, 0, FileOptions.Asynchronous | FileOptions.SequentialScan);
        await using var to = new FileStream(destination, FileMode.Create, FileAccess.Write, FileShare.None, 0, FileOptions.Asynchronous);
        await from.CopyToAsync(to, bufferBytes, cancellationToken);
    }

    /// <summary>Writes <paramref name="bytes"/> bytes of a fixed pattern to <paramref name="path"/>.</summary>
    public static async Task GenerateAsync(string path, long bytes, CancellationToken cancellationToken = default)
    {
        var block = ArrayPool<byte>.Shared.Rent(1 << 20);
        try
        {
            for (var i = 0; i < block.Length; i++)
            {
                block[i] = (byte)((i * 7) + (i >> 10));
            }

            await using var file = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 0, FileOptions.Asynchronous);
            for (long written = 0; written < bytes;)
            {
                var count = (int)Math.Min(block.Length, bytes - written);
                await file.WriteAsync(block.AsMemory(0, count), cancellationToken);
                written += count;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(block);
        }
    }

    private static DirectoryInfo CreateFolder(FileCopyOptions options)
    {
        if (options.Directory == null)
        {
            return Directory.CreateTempSubdirectory("perfgate-file-copy-");
        }

        var folder = new DirectoryInfo(Path.Combine(options.Directory, "perfgate-file-copy-" + Guid.NewGuid().ToString("N")));
        folder.Create();
        return folder;
    }
}
