using SystemUnderTest.Cli;
using SystemUnderTest.IO;

namespace Correctness.IO;

public sealed class FileCopyLoopTests : IDisposable
{
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("perfgate-file-copy-tests-");

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData((3 * 1024 * 1024) + 17)]
    public async Task A_copy_is_identical_to_its_source(int bytes)
    {
        var source = Path.Combine(_folder.FullName, "source.bin");
        var destination = Path.Combine(_folder.FullName, "copy.bin");
        await FileCopyLoop.GenerateAsync(source, bytes, TestContext.Current.CancellationToken);

        await FileCopyLoop.CopyAsync(source, destination, 81_920, TestContext.Current.CancellationToken);

        new FileInfo(source).Length.Should().Be(bytes);
        (await File.ReadAllBytesAsync(destination, TestContext.Current.CancellationToken)).Should().Equal(await File.ReadAllBytesAsync(source, TestContext.Current.CancellationToken));
    }

    [Fact]
    public async Task A_run_reports_the_seed_line_and_leaves_no_files()
    {
        var result = await FileCopyLoop.RunAsync(new FileCopyOptions { FileBytes = 1 << 20, Copies = 3, Directory = _folder.FullName }, TestContext.Current.CancellationToken);

        result.Copies.Should().Be(3);
        result.Bytes.Should().Be(3L << 20);
        result.ToString().Should().StartWith("Elapsed=").And.Contain("Gen0=").And.Contain("Gen2=");
        _folder.GetFileSystemInfos().Should().BeEmpty();
    }

    [Fact]
    public async Task A_cancelled_run_leaves_no_files()
    {
        using var cts = new CancellationTokenSource();
        var run = FileCopyLoop.RunAsync(new FileCopyOptions { FileBytes = 8 << 20, Copies = 10_000, Directory = _folder.FullName }, cts.Token);
        await Task.Delay(200, TestContext.Current.CancellationToken);
        await cts.CancelAsync();

        var wait = async () => await run;

        await wait.Should().ThrowAsync<OperationCanceledException>();
        _folder.GetFileSystemInfos().Should().BeEmpty();
    }

    [Theory]
    [InlineData(-1, 1, 1)]
    [InlineData(1, -1, 1)]
    [InlineData(1, 1, 0)]
    public async Task Bad_options_are_rejected(long bytes, int copies, int bufferBytes)
    {
        var run = () => FileCopyLoop.RunAsync(new FileCopyOptions { FileBytes = bytes, Copies = copies, BufferBytes = bufferBytes, Directory = _folder.FullName });

        await run.Should().ThrowAsync<ArgumentOutOfRangeException>();
    }

    [Theory]
    [InlineData("file-copy", "--size-mb", "-1")]
    [InlineData("file-copy", "--count", "x")]
    public async Task Command_rejects_bad_arguments_with_exit_code_2(params string[] args)
    {
        (await CommandLine.RunAsync(args)).Should().Be(2);
    }

    public void Dispose() => _folder.Delete(recursive: true);
}
