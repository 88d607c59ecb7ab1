using System.Diagnostics;
using PerfBudgets.Tool;
using PerfBudgets.Tool.ResultsClient;

namespace PerfBudgets.Server.Tests.ResultsClient;

/// <summary>
/// <c>perfbudgets upload --commit</c> given something git would read as an option: <c>git rev-list --output=FILE</c>
/// writes FILE, so a commit that starts with '-' is refused before git runs, and git is told where its options end.
/// </summary>
public sealed class GitAncestryOptionTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-git-option-").FullName;

    [Fact]
    public void A_commit_that_starts_with_a_dash_is_refused_and_git_writes_nothing()
    {
        Git("init", "-q");
        Git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "c0");
        var written = Path.Combine(_folder, "written-by-git");

        var read = () => GitAncestry.Read($"--output={written}", 1, _folder);

        read.Should().Throw<ToolInputException>().WithMessage("*starts with '-'*");
        File.Exists(written).Should().BeFalse();
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private void Git(params string[] arguments)
    {
        var start = new ProcessStartInfo("git") { WorkingDirectory = _folder, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var git = Process.Start(start)!;
        git.StandardOutput.ReadToEnd();
        git.WaitForExit();
        git.ExitCode.Should().Be(0, $"git {string.Join(' ', arguments)}");
    }
}
