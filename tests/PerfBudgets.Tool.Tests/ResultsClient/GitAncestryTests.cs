using System.Diagnostics;
using PerfBudgets.Tool;
using PerfBudgets.Tool.ResultsClient;

namespace PerfBudgets.Tool.Tests.ResultsClient;

/// <summary>
/// The ancestry <c>perfbudgets upload --ancestry N</c> reads from git, on a throw-away repository, and a commit git would
/// read as an option refused.
/// </summary>
public sealed class GitAncestryTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-git-").FullName;

    [Fact]
    public void Reads_each_commit_back_from_the_given_one_with_its_parents()
    {
        Git("init", "-q");
        var commits = Enumerable.Range(0, 3).Select(i =>
        {
            Git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", $"c{i}");
            return Git("rev-parse", "HEAD").Trim();
        }).ToList();

        var ancestry = GitAncestry.Read(commits[2], 2, _folder);

        ancestry.Select(a => a.Commit).Should().Equal(commits[2], commits[1]);
        ancestry[0].Parents.Should().Equal(commits[1]);
        ancestry[1].Parents.Should().Equal(commits[0]);
    }

    [Fact]
    public void An_unknown_commit_is_bad_input_naming_it()
    {
        Git("init", "-q");

        var read = () => GitAncestry.Read("0123456789abcdef0123456789abcdef01234567", 5, _folder);

        read.Should().Throw<ToolInputException>().WithMessage("*git rev-list 0123456789abcdef0123456789abcdef01234567 failed*");
    }

    // git rev-list --output=FILE writes FILE: a commit that starts with '-' is refused before git runs, and git is told
    // where its options end.
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

    private string Git(params string[] arguments)
    {
        var start = new ProcessStartInfo("git") { WorkingDirectory = _folder, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var git = Process.Start(start)!;
        var output = git.StandardOutput.ReadToEnd();
        git.WaitForExit();
        git.ExitCode.Should().Be(0, $"git {string.Join(' ', arguments)}");
        return output;
    }
}
