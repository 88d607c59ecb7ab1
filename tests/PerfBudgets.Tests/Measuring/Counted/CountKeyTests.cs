using System.Diagnostics;
using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// The key of a counted run: the same inputs give the same key, and a changed byte in the host's folder, an argument,
// a variable the runtime reads or Valgrind gives another.
public sealed class CountKeyTests : IDisposable
{
    private static readonly string Vectors = Path.Combine(AppContext.BaseDirectory, "TestVectors");
    private readonly TemporaryDirectory _folder = new();

    public CountKeyTests()
    {
        Directory.CreateDirectory(Host);
        File.WriteAllText(Path.Combine(Host, "Workloads.dll"), "the host");
        File.WriteAllText(Path.Combine(Host, "Workloads.runtimeconfig.json"), "{}");
    }

    private string Host => Path.Combine(_folder.Path, "host");

    private string Output => Path.Combine(_folder.Path, "output-1");

    public void Dispose() => _folder.Dispose();

    [Fact]
    public void The_key_is_the_same_for_the_same_start_and_host_files_whatever_the_run_s_output_folder()
    {
        var first = CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output);
        var second = CountKey.Of(Start(Host, "callgrind.out.%p", "/tmp/other-output"), "3.19.0", Host, "/tmp/other-output");

        second.Should().Be(first);
    }

    [Fact]
    public void One_changed_byte_in_the_host_s_folder_an_argument_a_runtime_variable_or_Valgrind_changes_the_key()
    {
        var key = CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output);
        var keys = new List<string>
        {
            CountKey.Of(Start(Host, "callgrind.out.%p", Output, "Other.Workload"), "3.19.0", Host, Output),
            CountKey.Of(Start(Host, "callgrind.out.%p", Output, variable: ("DOTNET_TieredPGO", "1")), "3.19.0", Host, Output),
            CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.20.0", Host, Output),
        };
        File.WriteAllText(Path.Combine(Host, "Workloads.dll"), "the hosT");
        keys.Add(CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output));
        File.WriteAllText(Path.Combine(Host, "Workloads.dll"), "the host");
        File.WriteAllText(Path.Combine(Host, "appsettings.json"), "{}");
        keys.Add(CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output));

        keys.Should().AllSatisfy(k => k.Should().NotBe(key)).And.OnlyHaveUniqueItems();
    }

    [Fact]
    public void What_the_meter_tells_a_running_host_is_part_of_the_key_and_no_steering_keeps_the_start_s_key()
    {
        var key = CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output);
        string[] served = ["served workload IO.FileCopy", "warm-up 2, 1 rounds of 2"];

        CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output, []).Should().Be(key);
        CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output, served).Should().NotBe(key)
            .And.NotBe(CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output, ["served workload IO.FileCopy", "warm-up 2, 1 rounds of 3"]))
            .And.Be(CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output, served));
    }

    [Fact]
    public void A_variable_no_runtime_reads_is_not_part_of_the_key()
    {
        var key = CountKey.Of(Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output);

        CountKey.Of(Start(Host, "callgrind.out.%p", Output, variable: ("GITHUB_RUN_NUMBER", "42")), "3.19.0", Host, Output).Should().Be(key);
        CountKey.KeyedVariable("DOTNET_gcServer").Should().BeTrue();
        CountKey.KeyedVariable("LD_PRELOAD").Should().BeTrue();
        CountKey.KeyedVariable("DOTNET_CLI_TELEMETRY_SESSIONID").Should().BeFalse();
        CountKey.KeyedVariable("DOTNET_HOST_PATH").Should().BeFalse("the dotnet command that started the tests sets it; the runtime does not read it");
        CountKey.KeyedVariable("DOTNET_NOLOGO").Should().BeFalse();
        CountKey.KeyedVariable("DOTNET_ROOT").Should().BeTrue("an app host finds its runtime by it");
        CountKey.KeyedVariable(CountKey.MappedFilesVariable).Should().BeFalse();
    }

    [Fact]
    public void The_mapped_files_are_read_from_a_process_s_maps_each_once_spaces_in_paths_kept()
    {
        CountKey.MappedFiles(Path.Combine(Vectors, "proc-maps.sample")).Should().Equal(
            "/usr/libexec/valgrind/callgrind-amd64-linux",
            "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
            "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libcoreclr.so",
            "/tmp/vgdb-pipe-shared-mem-vgdb-4242-by-root-on-host",
            "/work/my app/bin/Release/net10.0/My App.dll",
            "/memfd:doublemapper (deleted)");
    }

    // A workload host's start under Callgrind, with one runtime variable of its own (and none from this process).
    internal static ProcessStartInfo Start(string host, string outputFile, string outputDirectory, string workload = "Demo.Work", (string Name, string Value)? variable = null)
    {
        var start = new ProcessStartInfo("/usr/bin/valgrind") { WorkingDirectory = host };
        start.ArgumentList.Add("--tool=callgrind");
        start.ArgumentList.Add($"--callgrind-out-file={Path.Combine(outputDirectory, outputFile)}");
        start.ArgumentList.Add(Path.Combine(host, "Workloads.dll"));
        start.ArgumentList.Add(workload);
        start.Environment["DOTNET_TieredCompilation"] = "0";
        foreach (var name in start.Environment.Keys.Where(n => n.StartsWith("DOTNET_", StringComparison.Ordinal) && n != "DOTNET_TieredCompilation").ToList())
        {
            start.Environment.Remove(name);
        }

        if (variable is var (name2, value))
        {
            start.Environment[name2] = value;
        }

        return start;
    }
}
