using System.Diagnostics;
using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// The store of counted runs: a run is reused only while every input it had (its start, the host's folder, each file it
// mapped) is byte-identical, and a changed byte anywhere counts again.
public sealed class CountStoreTests : IDisposable
{
    private static readonly string Vectors = Path.Combine(AppContext.BaseDirectory, "TestVectors");
    private readonly TemporaryDirectory _folder = new();

    // Mapped files outside the temporary folder: the store leaves files under it out of a run's inputs (Valgrind's
    // pipes to vgdb are made there per run), so the runtime's files are stood in for by files beside the tests.
    private readonly string _machine = Path.Combine(AppContext.BaseDirectory, "count-store-tests-" + Guid.NewGuid().ToString("N"));

    public CountStoreTests()
    {
        Directory.CreateDirectory(Host);
        Directory.CreateDirectory(_machine);
        File.WriteAllText(Path.Combine(Host, "Workloads.dll"), "the host");
        File.WriteAllText(Path.Combine(Host, "Workloads.runtimeconfig.json"), "{}");
        File.WriteAllText(Runtime, "the runtime");
    }

    private string Host => Path.Combine(_folder.Path, "host");

    private string Output => Path.Combine(_folder.Path, "output-1");

    private string Runtime => Path.Combine(_machine, "libcoreclr.so");

    public void Dispose()
    {
        _folder.Dispose();
        Directory.Delete(_machine, recursive: true);
    }

    [Fact]
    public void The_key_is_the_same_for_the_same_start_and_host_files_whatever_the_run_s_output_folder()
    {
        var first = CountStore.Key(Start("callgrind.out.%p", Output), "3.19.0", Host, Output);
        var second = CountStore.Key(Start("callgrind.out.%p", "/tmp/other-output"), "3.19.0", Host, "/tmp/other-output");

        second.Should().Be(first);
    }

    [Fact]
    public void One_changed_byte_in_the_host_s_folder_an_argument_a_runtime_variable_or_Valgrind_changes_the_key()
    {
        var key = CountStore.Key(Start("callgrind.out.%p", Output), "3.19.0", Host, Output);
        var keys = new List<string>
        {
            CountStore.Key(Start("callgrind.out.%p", Output, "Other.Workload"), "3.19.0", Host, Output),
            CountStore.Key(Start("callgrind.out.%p", Output, variable: ("DOTNET_TieredPGO", "1")), "3.19.0", Host, Output),
            CountStore.Key(Start("callgrind.out.%p", Output), "3.20.0", Host, Output),
        };
        File.WriteAllText(Path.Combine(Host, "Workloads.dll"), "the hosT");
        keys.Add(CountStore.Key(Start("callgrind.out.%p", Output), "3.19.0", Host, Output));
        File.WriteAllText(Path.Combine(Host, "Workloads.dll"), "the host");
        File.WriteAllText(Path.Combine(Host, "appsettings.json"), "{}");
        keys.Add(CountStore.Key(Start("callgrind.out.%p", Output), "3.19.0", Host, Output));

        keys.Should().AllSatisfy(k => k.Should().NotBe(key)).And.OnlyHaveUniqueItems();
    }

    [Fact]
    public void A_variable_no_runtime_reads_is_not_part_of_the_key()
    {
        var key = CountStore.Key(Start("callgrind.out.%p", Output), "3.19.0", Host, Output);

        CountStore.Key(Start("callgrind.out.%p", Output, variable: ("GITHUB_RUN_NUMBER", "42")), "3.19.0", Host, Output).Should().Be(key);
        CountStore.KeyedVariable("DOTNET_gcServer").Should().BeTrue();
        CountStore.KeyedVariable("LD_PRELOAD").Should().BeTrue();
        CountStore.KeyedVariable("DOTNET_CLI_TELEMETRY_SESSIONID").Should().BeFalse();
        CountStore.KeyedVariable(CountStore.MappedFilesVariable).Should().BeFalse();
    }

    [Fact]
    public void A_stored_run_is_read_back_with_its_output_profiles_and_where_it_came_from()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);

        var stored = store.TryLoad(key);

        stored.Should().NotBeNull();
        stored!.StandardOutput.Should().Be("workload Demo.Work check ok\n");
        stored.Parts.Should().ContainSingle().Which.Trigger.Should().Be("Client Request: perfbudgets:Demo.Work:100:0");
        stored.Map.Count.Should().BeGreaterThan(0);
        stored.Reused.Key.Should().Be(key);
        stored.Reused.MeasuredUtc.Should().BeCloseTo(DateTimeOffset.UtcNow, TimeSpan.FromMinutes(1));
        new CallgrindRun(stored.StandardOutput, stored.Parts, stored.Map, "10.0.0", "3.19.0") { Reused = stored.Reused }
            .Measurement("Demo.Work").ToString().Should().Contain("reused, not counted again").And.Contain(key[..16]);
    }

    [Fact]
    public void One_changed_byte_in_a_file_the_run_mapped_counts_again()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);
        File.WriteAllText(Runtime, "the runtimE");

        store.TryLoad(key).Should().BeNull("the runtime the stored run mapped is not the one there now");
    }

    [Fact]
    public void A_mapped_file_that_is_gone_counts_again()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);
        File.Delete(Runtime);

        store.TryLoad(key).Should().BeNull();
    }

    [Fact]
    public void With_reuse_off_nothing_is_read_back_but_the_run_is_still_stored()
    {
        var folder = Path.Combine(_folder.Path, "store");
        var key = Save(new CountStore(folder, lookUp: false));

        new CountStore(folder, lookUp: false).TryLoad(key).Should().BeNull();
        new CountStore(folder, lookUp: true).TryLoad(key).Should().NotBeNull();
    }

    [Fact]
    public void A_host_that_listed_no_mapped_files_is_not_stored()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = CountStore.Key(Start("callgrind.out.%p", Output), "3.19.0", Host, Output);

        store.Save(key, Host, Path.Combine(_folder.Path, "no-list"), "out", [Path.Combine(Vectors, "callgrind.out.sample")], perfMapFile: null);

        store.TryLoad(key).Should().BeNull("without the files it mapped, nothing says the run's inputs are unchanged");
    }

    [Fact]
    public void An_entry_that_cannot_be_read_is_a_miss_not_an_error()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);
        File.WriteAllText(Path.Combine(store.Directory, key[..32], "manifest.json"), "{ not json");

        store.TryLoad(key).Should().BeNull();
    }

    [Fact]
    public void The_mapped_files_are_read_from_a_process_s_maps_each_once_spaces_in_paths_kept()
    {
        CountStore.MappedFiles(Path.Combine(Vectors, "proc-maps.sample")).Should().Equal(
            "/usr/libexec/valgrind/callgrind-amd64-linux",
            "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
            "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libcoreclr.so",
            "/tmp/vgdb-pipe-shared-mem-vgdb-4242-by-root-on-host",
            "/work/my app/bin/Release/net10.0/My App.dll",
            "/memfd:doublemapper (deleted)");
    }

    // Stores a run that mapped the stand-in runtime, a file in the host's folder, a memory file and a pipe in the
    // temporary folder (the last three are not inputs of their own), with the sample profile and perf map.
    private string Save(CountStore store)
    {
        var key = CountStore.Key(Start("callgrind.out.%p", Output), "3.19.0", Host, Output);
        var list = Path.Combine(_folder.Path, "mapped-files");
        File.WriteAllLines(list, [Runtime, Path.Combine(Host, "Workloads.dll"), "/memfd:doublemapper (deleted)", Path.Combine(Path.GetTempPath(), "vgdb-pipe-1")]);
        store.Save(key, Host, list, "workload Demo.Work check ok\n", [Path.Combine(Vectors, "callgrind.out.sample")], Path.Combine(Vectors, "perf-calls.map"));
        return key;
    }

    private ProcessStartInfo Start(string outputFile, string outputDirectory, string workload = "Demo.Work", (string Name, string Value)? variable = null)
    {
        var start = new ProcessStartInfo("/usr/bin/valgrind") { WorkingDirectory = Host };
        start.ArgumentList.Add("--tool=callgrind");
        start.ArgumentList.Add($"--callgrind-out-file={Path.Combine(outputDirectory, outputFile)}");
        start.ArgumentList.Add(Path.Combine(Host, "Workloads.dll"));
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
