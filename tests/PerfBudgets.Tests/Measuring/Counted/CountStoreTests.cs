using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// The store of counted runs: a stored run is read back only while every file it mapped is byte-identical, and a
// changed or missing file, reuse turned off, or an unreadable entry counts again.
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
        var key = CountKey.Of(CountKeyTests.Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output);

        var notStored = store.Save(key, Host, Path.Combine(_folder.Path, "no-list"), "out", [Path.Combine(Vectors, "callgrind.out.sample")], perfMapFile: null);

        store.TryLoad(key).Should().BeNull("without the files it mapped, nothing says the run's inputs are unchanged");
        notStored.Should().StartWith("the host listed no file it mapped (PERFBUDGETS_MAPPED_FILES");
    }

    [Fact]
    public void A_host_whose_mapped_file_is_gone_is_not_stored_and_says_which()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = CountKey.Of(CountKeyTests.Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output);
        var list = Path.Combine(_folder.Path, "mapped-files");
        var gone = "/perfbudgets-test-not-there/libgone.so";
        File.WriteAllLines(list, [Runtime, gone]);

        var notStored = store.Save(key, Host, list, "out", [Path.Combine(Vectors, "callgrind.out.sample")], perfMapFile: null);

        notStored.Should().Be($"a file the host mapped is gone: {gone}");
        store.TryLoad(key).Should().BeNull();
    }

    [Fact]
    public void An_entry_that_cannot_be_read_is_a_miss_not_an_error()
    {
        var store = new CountStore(Path.Combine(_folder.Path, "store"), lookUp: true);
        var key = Save(store);
        File.WriteAllText(Path.Combine(store.Directory, key[..32], "manifest.json"), "{ not json");

        store.TryLoad(key).Should().BeNull();
    }

    // Stores a run that mapped the stand-in runtime, a file in the host's folder, a memory file and a pipe in the
    // temporary folder (the last three are not inputs of their own), with the sample profile and perf map.
    private string Save(CountStore store)
    {
        var key = CountKey.Of(CountKeyTests.Start(Host, "callgrind.out.%p", Output), "3.19.0", Host, Output);
        var list = Path.Combine(_folder.Path, "mapped-files");
        File.WriteAllLines(list, [Runtime, Path.Combine(Host, "Workloads.dll"), "/memfd:doublemapper (deleted)", Path.Combine(Path.GetTempPath(), "vgdb-pipe-1")]);
        store.Save(key, Host, list, "workload Demo.Work check ok\n", [Path.Combine(Vectors, "callgrind.out.sample")], Path.Combine(Vectors, "perf-calls.map"))
            .Should().BeNull("a run whose mapped files are all there is stored");
        return key;
    }
}
