using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// Reading Callgrind's output format (a vector kept as data) and naming JIT-compiled code from a perf map.
public sealed class CallgrindProfileTests : IDisposable
{
    private static readonly string Sample = Path.Combine(AppContext.BaseDirectory, "TestVectors", "callgrind.out.sample");
    private readonly TemporaryDirectory _folder = new();

    public void Dispose() => _folder.Dispose();

    [Fact]
    public void A_profile_gives_its_trigger_totals_and_exclusive_counts()
    {
        var profile = CallgrindProfile.Read(Sample);

        profile.Trigger.Should().Be("Client Request: perfbudgets:Demo.Work:100:0");
        profile.Instructions.Should().Be(1500);
        profile.SystemCalls.Should().Be(7);
        profile.ExclusiveInstructions.Should().BeEquivalentTo(new Dictionary<string, long>
        {
            ["0x0000000050001010"] = 1150,
            ["0x0000000050002000"] = 300,
            ["clock_gettime@@GLIBC_2.17"] = 30,
            ["send"] = 20,
        }, "a call's inclusive cost line belongs to the callee, and a name given once is reused by its id");
        profile.ExclusiveSystemCalls.Should().BeEquivalentTo(new Dictionary<string, long>
        {
            ["0x0000000050002000"] = 2,
            ["clock_gettime@@GLIBC_2.17"] = 3,
            ["send"] = 2,
        });
    }

    [Fact]
    public void With_the_cache_simulation_each_function_has_its_estimated_cycles_and_they_add_up_to_the_whole()
    {
        var profile = CallgrindProfile.Read(Path.Combine(AppContext.BaseDirectory, "TestVectors", "callgrind.out.cache-sim"));
        var total = CallgrindProfile.EstimatedCycles(profile.Total("Ir"), profile.Total("Dr"), profile.Total("Dw"), profile.Total("I1mr"),
            profile.Total("D1mr"), profile.Total("D1mw"), profile.Total("ILmr"), profile.Total("DLmr"), profile.Total("DLmw"));

        // main: 327,685 instructions, 65,537 reads, 65,536 L1 read misses of which 65,535 missed the last level too:
        // (327,685 + 65,537 - 65,536) + 5 x 1 + 35 x 65,535.
        profile.ExclusiveEstimatedCycles["main"].Should().Be(2_621_416);
        profile.ExclusiveInstructions["main"].Should().Be(327_685, "an eighth of main's cycles: the misses are what the instructions do not show");
        profile.ExclusiveEstimatedCycles.Values.Sum().Should().Be(total);
        CallgrindProfile.Read(Sample).ExclusiveEstimatedCycles.Should().BeEmpty("without the cache simulation's events there is no estimate");
    }

    [Fact]
    public void Clock_reads_and_thread_synchronization_are_not_counted_as_system_calls()
    {
        InstructionMeter.IsTimingDependentSystemCall("clock_gettime@@GLIBC_2.17").Should().BeTrue();
        InstructionMeter.IsTimingDependentSystemCall("__futex_abstimed_wait_common").Should().BeTrue();
        InstructionMeter.IsTimingDependentSystemCall("pthread_cond_signal@@GLIBC_2.3.2").Should().BeTrue();
        InstructionMeter.IsTimingDependentSystemCall("send").Should().BeFalse();
        InstructionMeter.IsTimingDependentSystemCall("__libc_recv").Should().BeFalse();
        InstructionMeter.IsTimingDependentSystemCall("nanosleep").Should().BeFalse("a sleep is a change in the code");
    }

    [Fact]
    public void A_file_that_is_not_a_profile_is_refused()
    {
        Directory.CreateDirectory(_folder.Path);
        var path = Path.Combine(_folder.Path, "callgrind.out.1");
        File.WriteAllText(path, "version: 1\ncreator: callgrind-3.19.0\n");

        var act = () => CallgrindProfile.Read(path);

        act.Should().Throw<InstructionMeterException>().WithMessage("*is not a Callgrind profile*");
    }

    [Fact]
    public void A_perf_map_names_the_method_around_an_address()
    {
        Directory.CreateDirectory(_folder.Path);
        var path = Path.Combine(_folder.Path, "perf-1.map");
        File.WriteAllText(path, """
            0x50001000 40 instance void [SystemUnderTest] SystemUnderTest.HPack.HPackDecoder::Decode(valuetype System.ReadOnlySpan`1<uint8>,bool,class SystemUnderTest.HPack.IHPackHeaderHandler)[Optimized]
            0x50002000 20 stub<12> AllocateTemporaryEntryPoints<PRECODE_STUB>
            not a line of a perf map
            """);

        var map = PerfMap.Read(path);

        map.Count.Should().Be(2);
        map.Resolve("0x0000000050001010").Should().Be("SystemUnderTest.HPack.HPackDecoder::Decode");
        map.Resolve("0x0000000050002008").Should().StartWith("stub<12>");
        map.Resolve("0x0000000050003000").Should().BeNull("no range covers it");
        map.Resolve("memcpy").Should().Be("memcpy", "a native symbol is already a name");
        map.ModuleOf("0x0000000050001010").Should().Be("SystemUnderTest");
        map.ModuleOf("0x0000000050002008").Should().BeNull("a stub belongs to no module");
        map.ModuleOf("memcpy").Should().BeNull();
    }

    [Fact]
    public void A_methods_module_is_the_one_before_its_name_not_its_return_types()
    {
        var map = PerfMap.Read(Path.Combine(AppContext.BaseDirectory, "TestVectors", "perf-calls.map"));

        map.ModuleOf("0x0000000050004010").Should().Be("System.Linq", "[System.Runtime] names the return type's assembly");
        map.Resolve("0x0000000050004010").Should().Be("System.Linq.Enumerable::Select");
        map.Resolve("0x000000005000b008").Should().Be("stub GC write barrier (JIT_CopiedWriteBarriers)", "the runtime names the block after the function that reported it");
    }

    [Fact]
    public void Dumped_by_instruction_the_cost_of_code_without_a_symbol_is_kept_by_address()
    {
        var profile = CallgrindProfile.Read(Path.Combine(AppContext.BaseDirectory, "TestVectors", "callgrind.out.instr"));
        Directory.CreateDirectory(_folder.Path);
        var mapPath = Path.Combine(_folder.Path, "perf-2.map");
        File.WriteAllText(mapPath, """
            0x50020000 10000 stub ReportStubBlock<MethodCallThunk>
            0x50030000 100 instance void [App] Program+<<Main>$>d__0::MoveNext()[Optimized]
            """);
        var map = PerfMap.Read(mapPath);

        var byMethod = profile.ExclusiveInstructions.GroupBy(f => map.Resolve(f.Key)).ToDictionary(g => g.Key!, g => g.Sum(f => f.Value));

        byMethod.Should().BeEquivalentTo(new Dictionary<string, long>
        {
            ["stub ReportStubBlock<MethodCallThunk>"] = 100,
            ["Program+<<Main>$>d__0::MoveNext"] = 1400,
            ["memcpy"] = 200,
        }, "the call's inclusive cost belongs to the callee, and the method's own lines to the method, not the stub it was entered through");
        profile.Instructions.Should().Be(1700);
    }

    [Fact]
    public void Client_requests_are_no_ops_outside_Valgrind()
    {
        CallgrindRequests.IsRunningOnValgrind.Should().BeFalse();
        var act = () =>
        {
            CallgrindRequests.StartInstrumentation();
            CallgrindRequests.ZeroStats();
            CallgrindRequests.ToggleCollect();
            CallgrindRequests.ToggleCollect();
            CallgrindRequests.DumpStatsAt("perfbudgets:test:1:0");
            CallgrindRequests.StopInstrumentation();
        };

        act.Should().NotThrow();
    }
}
