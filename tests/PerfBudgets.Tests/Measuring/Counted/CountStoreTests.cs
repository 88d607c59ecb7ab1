using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// The store of counted runs: a stored run is read back only while every file it mapped is byte-identical, and a
// changed or missing file, reuse turned off, or an unreadable entry counts again, saying which it was.
public sealed class CountStoreTests : IDisposable
{
    private static readonly string Vectors = Path.Combine(AppContext.BaseDirectory, "TestVectors");
    private readonly TemporaryDirectory _folder = new();

    // The runtime's files are stood in for by files beside the tests, in the measuring process's folder, where the
    // pinned runtime is laid out: the store keeps them as inputs even in a clone in the temporary folder, whose other
    // files (Valgrind's pipes to vgdb, made per run) it leaves out.
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
    public void A_stored_run_is_read_back_with_its_output_profiles_and_where_it_came_from()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);

        var stored = store.TryLoad(key, out var notReusedBecause);

        notReusedBecause.Should().BeNull();
        stored.Should().NotBeNull();
        stored!.StandardOutput.Should().Be("workload Demo.Work check ok\n");
        stored.Parts.Should().ContainSingle().Which.Trigger.Should().Be("Client Request: perfbudgets:Demo.Work:100:0");
        stored.Map.Count.Should().BeGreaterThan(0);
        stored.Reused.Key.Should().Be(key.Key);
        stored.Reused.MeasuredUtc.Should().BeCloseTo(DateTimeOffset.UtcNow, TimeSpan.FromMinutes(1));
        new CallgrindRun(stored.StandardOutput, stored.Parts, stored.Map, "10.0.0", "3.19.0") { Reused = stored.Reused }
            .Measurement("Demo.Work").ToString().Should().Contain("reused, not counted again").And.Contain(key.Key[..16]);
    }

    [Fact]
    public void One_changed_byte_in_a_file_the_run_mapped_counts_again()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);
        File.WriteAllText(Runtime, "the runtimE");

        store.TryLoad(key, out var notReusedBecause).Should().BeNull("the runtime the stored run mapped is not the one there now");
        notReusedBecause.Should().StartWith("the stored run with these inputs (counted ").And.EndWith($"mapped {Runtime}, which has changed since");
    }

    [Fact]
    public void A_run_that_finds_no_entry_says_which_inputs_differ_from_the_nearest_stored_runs()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        store.TryLoad(Inputs(), out var empty).Should().BeNull();
        empty.Should().Be($"the store {store.Directory} holds no counted run yet");
        Save(store);
        File.WriteAllText(Path.Combine(Host, "Workloads.dll"), "the hosT");
        File.WriteAllText(Path.Combine(Host, "appsettings.json"), "{}");

        store.TryLoad(Inputs(variable: ("DOTNET_TieredPGO", "1")), out var notReusedBecause).Should().BeNull();

        notReusedBecause.Should().StartWith("no stored run had these inputs; the nearest (counted ")
            .And.EndWith("differs in 3: DOTNET_TieredPGO (none) → 1; file Workloads.dll changed; file appsettings.json is new");
    }

    [Fact]
    public void A_changed_argument_is_named_with_both_values()
    {
        var stored = Inputs();
        var other = Inputs(workload: "Other.Work");

        other.Differences(stored.Lines).Should().Equal("argument 4 Demo.Work → Other.Work");
        stored.Differences(stored.Lines).Should().BeEmpty();
    }

    [Fact]
    public void The_nearest_stored_run_is_one_of_the_same_kind()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        Save(store, Inputs(steering: ["served workload Demo.Work", "warm-up 8, 7 rounds of 4"]));
        Save(store, Inputs(variable: ("DOTNET_TieredPGO", "0"), steering: ["server session"]));

        store.TryLoad(Inputs(variable: ("DOTNET_TieredPGO", "0"), steering: ["served workload Demo.Work", "warm-up 8, 7 rounds of 5"]), out var notReusedBecause)
            .Should().BeNull();

        notReusedBecause.Should().EndWith("differs in 2: DOTNET_TieredPGO (none) → 0; steering 2 warm-up 8, 7 rounds of 4 → warm-up 8, 7 rounds of 5",
            "the server's session differs in one line only, but a served workload is told from a served workload's run");
    }

    [Fact]
    public void An_empty_input_is_named_as_empty()
    {
        new CountInputs(["folder /tmp/host"]).Differences(["folder "]).Should().Equal("folder (empty) → /tmp/host");
    }

    [Fact]
    public void A_rebuild_names_the_assembly_that_changed_before_its_symbols()
    {
        var stored = new CountInputs(["file Workloads.dll 1", "file Workloads.pdb 1", "file Workloads.xml 1"]);
        var rebuilt = new CountInputs(["file Workloads.dll 2", "file Workloads.pdb 2", "file Workloads.xml 2"]);

        rebuilt.Differences(stored.Lines).Should().Equal(
            "file Workloads.dll changed", "file Workloads.pdb changed", "file Workloads.xml changed");
        new CountInputs(["file A.pdb 2", "file B.dll 2"]).Differences(["file A.pdb 1", "file B.dll 1"]).Should().Equal(
            "file B.dll changed", "file A.pdb changed");
    }

    [Fact]
    public void Files_in_the_temporary_folder_are_inputs_only_under_the_measuring_processs_folder()
    {
        // A clone in the temporary folder, as on a CI runner whose work folder is there.
        const string temporary = "/tmp/";
        const string measuring = "/tmp/clone/tests/Cpu/bin/Release/net10.0/";

        CountKey.IsInput(measuring + "counted-runtime/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so", "/tmp/host/", temporary, measuring).Should().BeTrue();
        CountKey.IsInput("/tmp/vgdb-pipe-shared-mem-vgdb-4242-by-root-on-vm", "/tmp/host/", temporary, measuring).Should().BeFalse();
        CountKey.IsInput("/tmp/host/Workloads.dll", "/tmp/host/", temporary, measuring).Should().BeFalse("the host's folder is in the key already");
        CountKey.IsInput("/usr/lib/x86_64-linux-gnu/libc.so.6", "/tmp/host/", temporary, measuring).Should().BeTrue();
    }

    [Fact]
    public void A_mapped_file_that_is_gone_counts_again()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);
        File.Delete(Runtime);

        store.TryLoad(key, out var notReusedBecause).Should().BeNull();
        notReusedBecause.Should().EndWith($"mapped {Runtime}, which is gone");
    }

    [Fact]
    public void With_reuse_off_nothing_is_read_back_but_the_run_is_still_stored()
    {
        var folder = Path.Combine(_folder.Path, "store");
        var key = Save(new CountStore(folder, lookUp: false));

        new CountStore(folder, lookUp: false).TryLoad(key, out var notReusedBecause).Should().BeNull();
        notReusedBecause.Should().Be("PERF_REUSE=off");
        new CountStore(folder, lookUp: true).TryLoad(key, out _).Should().NotBeNull();
    }

    [Fact]
    public void A_host_that_listed_no_mapped_files_is_not_stored()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Inputs();

        var notStored = store.Save(key, Host, Path.Combine(_folder.Path, "no-list"), "out", [Path.Combine(Vectors, "callgrind.out.sample")], perfMapFile: null);

        store.TryLoad(key, out _).Should().BeNull("without the files it mapped, nothing says the run's inputs are unchanged");
        notStored.Should().StartWith("the host listed no file it mapped (PERFBUDGETS_MAPPED_FILES");
    }

    [Fact]
    public void A_host_whose_mapped_file_is_gone_is_not_stored_and_says_which()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Inputs();
        var list = Path.Combine(_folder.Path, "mapped-files");
        var gone = "/perfbudgets-test-not-there/libgone.so";
        File.WriteAllLines(list, [Runtime, gone]);

        var notStored = store.Save(key, Host, list, "out", [Path.Combine(Vectors, "callgrind.out.sample")], perfMapFile: null);

        notStored.Should().Be($"a file the host mapped is gone: {gone}");
        store.TryLoad(key, out _).Should().BeNull();
    }

    [Fact]
    public void An_entry_that_cannot_be_read_is_a_miss_not_an_error()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);
        File.WriteAllText(Path.Combine(store.Directory, key.Key[..32], "manifest.json"), "{ not json");

        store.TryLoad(key, out var notReusedBecause).Should().BeNull();
        notReusedBecause.Should().StartWith($"the store's entry {key.Key[..16]} could not be read (");
    }

    // Stores a run that mapped the stand-in runtime, a file in the host's folder, a memory file and a pipe in the
    // temporary folder (the last three are not inputs of their own), with the sample profile and perf map.
    private CountInputs Save(CountStore store) => Save(store, Inputs());

    private CountInputs Save(CountStore store, CountInputs key)
    {
        var list = Path.Combine(_folder.Path, "mapped-files");
        File.WriteAllLines(list, [Runtime, Path.Combine(Host, "Workloads.dll"), "/memfd:doublemapper (deleted)", Path.Combine(Path.GetTempPath(), "vgdb-pipe-1")]);
        store.Save(key, Host, list, "workload Demo.Work check ok\n", [Path.Combine(Vectors, "callgrind.out.sample")], Path.Combine(Vectors, "perf-calls.map"))
            .Should().BeNull("a run whose mapped files are all there is stored");
        return key;
    }

    private CountInputs Inputs(string workload = "Demo.Work", (string Name, string Value)? variable = null, IEnumerable<string>? steering = null) =>
        CountKey.Inputs(CountKeyTests.Start(Host, "callgrind.out.%p", Output, workload, variable), "3.19.0", Host, Output, steering);
}
