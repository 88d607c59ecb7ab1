using System.Diagnostics;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// Which commit is the base, in a repository made for each test; PERF_BASE is this process's, so these run one at a time.
[Collection(nameof(BaseBuildTests))]
[CollectionDefinition(nameof(BaseBuildTests), DisableParallelization = true)]
public sealed class BaseBuildTests : IDisposable
{
    private readonly TemporaryDirectory _repository = new();
    private readonly string? _variable = Environment.GetEnvironmentVariable(HarnessEnvironment.BaseVariable);

    public BaseBuildTests()
    {
        Directory.CreateDirectory(_repository.Path);
        Git("init", "-q");
    }

    public void Dispose()
    {
        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, _variable);
        _repository.Dispose();
    }

    [Fact]
    public void A_clean_tree_is_compared_with_its_first_parent()
    {
        var first = Commit("one");
        Commit("two");

        var found = BaseBuild.TryResolve(_repository.Path, out _);

        found!.Commit.Should().Be(first);
        found.Description.Should().Be($"{first[..12]} (HEAD's first parent: the working tree is HEAD)");
    }

    [Fact]
    public void Uncommitted_changes_are_compared_with_HEAD()
    {
        Commit("one");
        var head = Commit("two");
        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), "changed");

        BaseBuild.TryResolve(_repository.Path, out _)!.Commit.Should().Be(head);
    }

    [Fact]
    public void A_first_commit_has_no_base_and_says_how_to_name_one()
    {
        Commit("one");

        BaseBuild.TryResolve(_repository.Path, out var reason).Should().BeNull();
        reason.Should().Contain("HEAD^1 does not exist").And.Contain("PERF_BASE=REF");
    }

    [Fact]
    public void PERF_BASE_names_the_base_or_turns_pairing_off()
    {
        var first = Commit("one");
        Commit("two");
        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, "HEAD~1");
        BaseBuild.TryResolve(_repository.Path, out _)!.Commit.Should().Be(first);

        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, "no-such-branch");
        BaseBuild.TryResolve(_repository.Path, out var unknown).Should().BeNull();
        unknown.Should().Contain("PERF_BASE=no-such-branch names no commit here");

        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, "none");
        BaseBuild.TryResolve(_repository.Path, out var off).Should().BeNull();
        off.Should().Be("pairing is off (PERF_BASE=none)");
    }

    [Fact]
    public void Outside_a_repository_there_is_no_base()
    {
        using var elsewhere = new TemporaryDirectory();
        Directory.CreateDirectory(elsewhere.Path);

        BaseBuild.TryResolve(elsewhere.Path, out var reason).Should().BeNull();
        reason.Should().Contain("no git repository holds").And.Contain("PERF_BASE=none");
    }

    private string Commit(string content)
    {
        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), content);
        Git("add", "-A");
        Git("-c", "user.name=test", "-c", "user.email=test@localhost", "commit", "-qm", content);
        return Git("rev-parse", "HEAD");
    }

    private string Git(params string[] arguments)
    {
        var start = new ProcessStartInfo("git") { WorkingDirectory = _repository.Path, RedirectStandardOutput = true, RedirectStandardError = true };
        arguments.ToList().ForEach(start.ArgumentList.Add);
        using var git = Process.Start(start)!;
        var output = git.StandardOutput.ReadToEnd();
        git.WaitForExit();
        git.ExitCode.Should().Be(0, git.StandardError.ReadToEnd());
        return output.Trim();
    }
}
