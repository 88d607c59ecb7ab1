using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// Where the counted processes' runtime comes from: the pinned root beside the tests, else the machine's.
public sealed class CountedRuntimeTests : IDisposable
{
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("perfbudgets-counted-runtime-");

    public void Dispose() => _folder.Delete(recursive: true);

    [Fact]
    public void Without_a_pinned_root_the_machine_runtime_is_used()
    {
        var runtime = CountedRuntime.Locate(_folder.FullName);

        runtime.IsPinned.Should().BeFalse();
        runtime.Version.Should().Be(Environment.Version.ToString());
    }

    [Fact]
    public void A_pinned_root_gives_its_muxer_and_its_one_version()
    {
        var root = Directory.CreateDirectory(Path.Combine(_folder.FullName, CountedRuntime.DirectoryName));
        Directory.CreateDirectory(Path.Combine(root.FullName, "shared", "Microsoft.NETCore.App", "10.0.12"));
        File.WriteAllText(Path.Combine(root.FullName, "dotnet"), string.Empty);

        var runtime = CountedRuntime.Locate(_folder.FullName);

        runtime.IsPinned.Should().BeTrue();
        runtime.Version.Should().Be("10.0.12");
        runtime.DotnetHost.Should().Be(Path.Combine(root.FullName, "dotnet"));
    }

    [Fact]
    public void A_pinned_root_with_two_versions_is_refused()
    {
        var root = Directory.CreateDirectory(Path.Combine(_folder.FullName, CountedRuntime.DirectoryName));
        Directory.CreateDirectory(Path.Combine(root.FullName, "shared", "Microsoft.NETCore.App", "10.0.12"));
        Directory.CreateDirectory(Path.Combine(root.FullName, "shared", "Microsoft.NETCore.App", "10.0.14"));
        File.WriteAllText(Path.Combine(root.FullName, "dotnet"), string.Empty);

        var act = () => CountedRuntime.Locate(_folder.FullName);

        act.Should().Throw<InstructionMeterException>().WithMessage("*needs the dotnet muxer and exactly one version of Microsoft.NETCore.App (found a muxer and 2 version(s))*");
    }

    [Fact]
    public void The_counted_suite_runs_on_the_pinned_runtime()
    {
        // The Cpu suite imports the package's buildTransitive/PerfBudgets.targets; this suite does not, so it sees the machine's.
        CountedRuntime.Current.IsPinned.Should().BeFalse();
    }
}
