using System.Diagnostics;
using System.Text.Json;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// Which commit is the base, in a repository made for each test. The settings are given (BaseSelection), so whatever
// PERF_BASE_COMMIT or CI this process has changes nothing; the one test of the environment's reading clears and restores
// them, so these run one at a time.
[Collection(nameof(BaseBuildTests))]
[CollectionDefinition(nameof(BaseBuildTests), DisableParallelization = true)]
public sealed class BaseBuildTests : IDisposable
{
    private static readonly BaseSelection Local = new(Named: null, PairingOff: false, IsCi: false);
    private static readonly BaseSelection Ci = new(Named: null, PairingOff: false, IsCi: true);

    private readonly TemporaryDirectory _repository = new();
    private readonly string? _base = Environment.GetEnvironmentVariable(HarnessEnvironment.BaseVariable);
    private readonly string? _oldBase = Environment.GetEnvironmentVariable(HarnessEnvironment.OldBaseVariable);
    private readonly string? _ci = Environment.GetEnvironmentVariable(HarnessEnvironment.CiVariable);

    public BaseBuildTests()
    {
        Directory.CreateDirectory(_repository.Path);
        Git("init", "-q");
    }

    public void Dispose()
    {
        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, _base);
        Environment.SetEnvironmentVariable(HarnessEnvironment.OldBaseVariable, _oldBase);
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

        found!.Commit.Should().Be(first, "under CI the base is never HEAD unless PERF_BASE_COMMIT names it");
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
        Environment.SetEnvironmentVariable(HarnessEnvironment.OldBaseVariable, null);
        Environment.SetEnvironmentVariable(HarnessEnvironment.CiVariable, "true");

        BaseBuild.TryResolve(_repository.Path, out _)!.Commit.Should().Be(first, "CI=true from the environment");
        Resolve(Local, out _)!.Commit.Should().NotBe(first, "the given settings, not the environment's");
    }

    [Fact]
    public void The_base_commits_old_variable_is_still_read_and_said_to_be_deprecated()
    {
        var first = Commit("one");
        Commit("two");
        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, null);
        Environment.SetEnvironmentVariable(HarnessEnvironment.OldBaseVariable, first);

        BaseBuild.TryResolve(_repository.Path, out _)!.Commit.Should().Be(first, "PERF_BASE names it");
        HarnessEnvironment.DeprecationLine.Should().Be("PERF_BASE is deprecated and still read: name the base commit with PERF_BASE_COMMIT (PERF_BASELINE stays the earlier run's results.json)");

        Environment.SetEnvironmentVariable(HarnessEnvironment.BaseVariable, "none");
        HarnessEnvironment.PairingOff.Should().BeTrue("the new name wins over the old");
        HarnessEnvironment.DeprecationLine.Should().BeNull();
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
        reason.Should().Contain("HEAD^1 does not exist").And.Contain("PERF_BASE_COMMIT=REF");
    }

    [Fact]
    public void PERF_BASE_names_the_base_or_turns_pairing_off()
    {
        var first = Commit("one");
        Commit("two");
        Resolve(Local with { Named = "HEAD~1" }, out _)!.Commit.Should().Be(first);

        Resolve(Local with { Named = "no-such-branch" }, out var unknown).Should().BeNull();
        unknown.Should().Contain("PERF_BASE_COMMIT=no-such-branch names no commit here");

        Resolve(Local with { PairingOff = true }, out var off).Should().BeNull();
        off.Should().Be("pairing is off (PERF_BASE_COMMIT=none)");
    }

    [Fact]
    public void Outside_a_repository_there_is_no_base()
    {
        using var elsewhere = new TemporaryDirectory();
        Directory.CreateDirectory(elsewhere.Path);

        BaseBuild.TryResolve(elsewhere.Path, Local, out var reason).Should().BeNull();
        reason.Should().Contain("no git repository holds").And.Contain("PERF_BASE_COMMIT=none");
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

    [Fact]
    public void A_head_whose_changes_are_documentation_has_the_same_inputs_as_its_base()
    {
        Projects();
        Commit("one");
        Commit("one", ("README.md", "# new words"), ("docs/notes.md", "more"), ("build/run.sh", "echo"), ("LICENSE", "MIT"));

        var sameInputs = Resolve(Local, out _)!.SameInputs(AppProject);

        sameInputs.Should().NotBeNull().And.Contain("the head's inputs to App are the base's").And.Contain("README.md").And.Contain("2 project folders");
    }

    [Theory]
    [InlineData("lib/Lib.cs", "a referenced project's source")]
    [InlineData("app/Program.cs", "the project's own source")]
    [InlineData("app/appsettings.json", "any file in the project's folder")]
    [InlineData("Directory.Build.props", "build settings above the projects")]
    [InlineData("Directory.Packages.props", "the packages' versions")]
    [InlineData("shared/Linked.cs", "a source file a project may link from elsewhere")]
    [InlineData("global.json", "the SDK's pin")]
    public void A_change_that_could_be_an_input_runs_the_pair(string path, string because)
    {
        Projects();
        Commit("one");
        Commit("one", (path, "changed"), ("README.md", "and a doc"));

        Resolve(Local, out _)!.SameInputs(AppProject).Should().BeNull(because);
    }

    [Fact]
    public void Uncommitted_and_untracked_changes_count_as_the_heads()
    {
        Projects();
        Commit("one");
        File.WriteAllText(Path.Combine(_repository.Path, "docs.md"), "only a doc");
        Commit("two");
        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), "uncommitted, tracked");
        var found = Resolve(Local, out _)!;
        found.SameInputs(AppProject).Should().BeNull("file.txt, tracked, could be read by a build");

        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), "two");
        File.WriteAllText(Path.Combine(_repository.Path, "docs.md"), "uncommitted doc");
        Resolve(Local, out _)!.SameInputs(AppProject).Should().NotBeNull("only a document differs from HEAD");

        File.WriteAllText(Path.Combine(_repository.Path, "lib", "New.cs"), "class New {}");
        Resolve(Local, out _)!.SameInputs(AppProject).Should().BeNull("an untracked source file in a project's folder is compiled");
    }

    [Fact]
    public void An_unrestored_project_or_a_base_named_with_the_heads_tree_runs_the_pair()
    {
        Projects();
        Commit("one");
        Commit("one", ("README.md", "a doc"));
        Resolve(Local, out _)!.SameInputs(AppProject).Should().NotBeNull("only a document changed");

        Resolve(Local with { Named = "HEAD" }, out _)!.SameInputs(AppProject).Should().BeNull("PERF_BASE_COMMIT named the head's own tree: two builds compared on purpose");

        File.Delete(Path.Combine(_repository.Path, "lib", "obj", "project.assets.json"));
        Resolve(Local, out _)!.SameInputs(AppProject).Should().BeNull("without the restore's record the closure is not known");
    }

    private string AppProject => Path.Combine(_repository.Path, "app", "App.csproj");

    // app/App.csproj references lib/Lib.csproj, both restored (obj/ ignored, as a repository keeps it).
    private void Projects()
    {
        File.WriteAllText(Path.Combine(_repository.Path, ".gitignore"), "obj/\n");
        foreach (var (name, references) in new[] { ("app/App", new[] { "lib/Lib" }), ("lib/Lib", Array.Empty<string>()) })
        {
            var folder = Path.Combine(_repository.Path, Path.GetDirectoryName(name)!);
            Directory.CreateDirectory(Path.Combine(folder, "obj"));
            File.WriteAllText(Path.Combine(_repository.Path, name + ".csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />");
            File.WriteAllText(Path.Combine(folder, Path.GetFileName(name) + ".cs"), "class C {}");
            var projectReferences = string.Join(",", references.Select(r =>
            {
                var path = JsonEncodedText.Encode(Path.Combine(_repository.Path, r + ".csproj"));
                return $"\"{path}\": {{ \"projectPath\": \"{path}\" }}";
            }));
            File.WriteAllText(Path.Combine(folder, "obj", "project.assets.json"),
                $"{{ \"version\": 3, \"project\": {{ \"restore\": {{ \"projectPath\": \"{JsonEncodedText.Encode(Path.Combine(_repository.Path, name + ".csproj"))}\", \"frameworks\": {{ \"net10.0\": {{ \"projectReferences\": {{ {projectReferences} }} }} }} }} }} }}");
        }
    }

    private string Commit(string content, params (string Path, string Content)[] others) => Commit(content, allowEmpty: false, others);

    private string Commit(string content, bool allowEmpty, params (string Path, string Content)[] others)
    {
        File.WriteAllText(Path.Combine(_repository.Path, "file.txt"), content);
        foreach (var file in others)
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
