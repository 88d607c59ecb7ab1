using System.Diagnostics;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// Which commit is the base, in a repository made for each test. The settings are given (BaseSelection), so whatever
// PERF_BASE or CI this process has changes nothing; the one test of the environment's reading clears and restores
// them, so these run one at a time.
[Collection(nameof(BaseBuildTests))]
[CollectionDefinition(nameof(BaseBuildTests), DisableParallelization = true)]
public sealed class BaseBuildTests : IDisposable
{
    private static readonly BaseSelection Local = new(Named: null, PairingOff: false, IsCi: false);
    private static readonly BaseSelection Ci = new(Named: null, PairingOff: false, IsCi: true);

    private readonly TemporaryDirectory _repository = new();
    private readonly string? _base = Environment.GetEnvironmentVariable(HarnessEnvironment.BaseVariable);
    private readonly string? _ci = Environment.GetEnvironmentVariable(HarnessEnvironment.CiVariable);

    public BaseBuildTests()
    {
        Directory.CreateDirectory(_repository.Path);
        Git("init", "-q");
    }

    public void Dispose()
    {
        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, _base);
        Environment.SetEnvironmentVariable(HarnessEnvironment.CiVariable, _ci);
        _repository.Dispose();
    }

    private BaseBuild? Resolve(BaseSelection selection, out string reason) => BaseBuild.TryResolve(_repository.Path, selection, out reason);

    [Fact]
    public void A_clean_tree_is_compared_with_its_first_parent()
    {
        var first = Commit("one");
        Commit("two");

        var found = Resolve(Local, out _);

        found!.Commit.Should().Be(first);
        found.Description.Should().Be($"{first[..12]} (HEAD's first parent: the working tree is HEAD)");
    }

    [Fact]
    public void An_untracked_file_or_a_change_under_artifacts_leaves_the_base_unchanged()
    {
        var first = Commit("one");
        Commit("two", ("artifacts/budgets/history.jsonl", "{}"));
        File.WriteAllText(Path.Combine(_repository.Path, "results.json"), "written by a test");
        File.WriteAllText(Path.Combine(_repository.Path, "artifacts", "budgets", "history.jsonl"), "{} {}");

        Resolve(Local, out _)!.Commit.Should().Be(first, "neither is the change under test");
    }

    [Fact]
    public void Under_CI_a_clean_tree_or_a_changed_one_is_compared_with_the_first_parent()
    {
        var first = Commit("one");
        Commit("two");
        Resolve(Ci, out _)!.Commit.Should().Be(first);

        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), "changed by a CI step");
        var found = Resolve(Ci, out _);

        found!.Commit.Should().Be(first, "under CI the base is never HEAD unless PERF_BASE names it");
        found.Description.Should().Contain("under CI the base is never HEAD");
    }

    [Fact]
    public void A_base_whose_tree_is_the_heads_is_no_base_unless_named()
    {
        Commit("one");
        var head = Commit("one", allowEmpty: true);

        Resolve(Local, out var reason).Should().BeNull();
        reason.Should().Contain("has the head's tree: there is no change to compare");
        Resolve(Ci, out _).Should().BeNull();

        var named = Resolve(new BaseSelection("HEAD", PairingOff: false, IsCi: true), out _);
        named!.Commit.Should().Be(head);
        named.Description.Should().Contain("its tree is the head's");
    }

    [Fact]
    public void The_environment_is_read_by_the_public_overload_only()
    {
        var first = Commit("one");
        Commit("two");
        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), "changed");
        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, null);
        Environment.SetEnvironmentVariable(HarnessEnvironment.CiVariable, "true");

        BaseBuild.TryResolve(_repository.Path, out _)!.Commit.Should().Be(first, "CI=true from the environment");
        Resolve(Local, out _)!.Commit.Should().NotBe(first, "the given settings, not the environment's");
    }

    [Fact]
    public void Uncommitted_changes_are_compared_with_HEAD()
    {
        Commit("one");
        var head = Commit("two");
        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), "changed");

        Resolve(Local, out _)!.Commit.Should().Be(head);
    }

    [Fact]
    public void A_first_commit_has_no_base_and_says_how_to_name_one()
    {
        Commit("one");

        Resolve(Local, out var reason).Should().BeNull();
        reason.Should().Contain("HEAD^1 does not exist").And.Contain("PERF_BASE=REF");
    }

    [Fact]
    public void PERF_BASE_names_the_base_or_turns_pairing_off()
    {
        var first = Commit("one");
        Commit("two");
        Resolve(Local with { Named = "HEAD~1" }, out _)!.Commit.Should().Be(first);

        Resolve(Local with { Named = "no-such-branch" }, out var unknown).Should().BeNull();
        unknown.Should().Contain("PERF_BASE=no-such-branch names no commit here");

        Resolve(Local with { PairingOff = true }, out var off).Should().BeNull();
        off.Should().Be("pairing is off (PERF_BASE=none)");
    }

    [Fact]
    public void Outside_a_repository_there_is_no_base()
    {
        using var elsewhere = new TemporaryDirectory();
        Directory.CreateDirectory(elsewhere.Path);

        BaseBuild.TryResolve(elsewhere.Path, Local, out var reason).Should().BeNull();
        reason.Should().Contain("no git repository holds").And.Contain("PERF_BASE=none");
    }

    [Fact]
    public void A_new_base_leaves_the_newest_bases_kept_and_any_base_in_use()
    {
        var bases = Path.Combine(_repository.Path, "artifacts", "base");
        var names = new[] { "oldest000000", "older0000000", "inuse0000000", "newer0000000", "newest000000" };
        foreach (var name in names)
        {
            var folder = Directory.CreateDirectory(Path.Combine(bases, name, "tree"));
            File.WriteAllText(Path.Combine(folder.FullName, "file.txt"), name);
        }

        using (new FileStream(Path.Combine(bases, "inuse0000000", ".lock"), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None))
        {
            for (var i = 0; i < names.Length; i++)
            {
                Directory.SetLastWriteTimeUtc(Path.Combine(bases, names[i]), DateTime.UtcNow.AddHours(-10 + i));
            }

            BaseBuild.Create(_repository.Path, new string('c', 40), "the test's", keep: 3).PruneOlderBases();
        }

        Directory.GetDirectories(bases).Select(Path.GetFileName).Order(StringComparer.Ordinal)
            .Should().Equal(["inuse0000000", "newer0000000", "newest000000"], "the new base and the two newest others are kept, and one another process holds");
    }

    private string Commit(string content, (string Path, string Content)? other = null, bool allowEmpty = false)
    {
        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), content);
        if (other is { } file)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.Combine(_repository.Path, file.Path))!);
            File.WriteAllText(Path.Combine(_repository.Path, file.Path), file.Content);
        }

        Git("add", "-A");
        Git(["-c", "user.name=test", "-c", "user.email=test@localhost", "commit", "-qm", content, .. allowEmpty ? new[] { "--allow-empty" } : []]);
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
