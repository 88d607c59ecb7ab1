using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Diagnostics.Tests;

// The allocation profiler's estimates against exact counts. A profile is a sample: its stated relative standard error
// is 1/√samples (measured: ~2.2% for System.Byte[] at ~2,000 samples, worst 6% in 30 profiles), and the assertions
// allow four of those, so a correct profiler fails them about once in 15,000 runs while a wrong upscaling (off by
// the object size, or by the sampling probability) fails them every time.
public sealed class AllocationProfilerTests : IDisposable
{
    private static readonly string Text40 = new('x', 40);
    private static object? _sink;
    private readonly TestBudgets _budgets = new("allocation-profiler");

    public void Dispose() => _budgets.Dispose();

    // A 256-byte array (280 B with its header) and a fresh 40-char string (104 B) per operation.
    private static void KnownOperation()
    {
        _sink = new byte[256];
        _sink = string.Concat(Text40.AsSpan(0, 20), Text40.AsSpan(20));
    }

    // Allocates in a method of its own, through the framework (string.Concat), so the site is a frame below the operation.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void AllocatesInItsOwnMethod() => _sink = string.Concat(Text40.AsSpan(0, 20), Text40.AsSpan(20), Text40);

    [Fact]
    public void Names_the_method_that_allocates_not_only_the_type()
    {
        var profile = AllocationProfiler.PerOperation(static () => AllocatesInItsOwnMethod());

        profile.Methods.Should().NotBeEmpty("each AllocationSampled event carries its stack over EventPipe: {0}", profile);
        profile.Methods[0].Method.Should().EndWith("AllocationProfilerTests.AllocatesInItsOwnMethod", "the framework's String.Concat is passed over for the caller's method: {0}", profile);
        profile.Describe().Should().Contain("allocated in, own code with what it called: PerfBudgets.Diagnostics.Tests.AllocationProfilerTests.AllocatesInItsOwnMethod ≈ ");
    }

    [Fact]
    public void Names_the_array_first_with_its_bytes_per_operation_within_the_stated_error()
    {
        var arrayBytes = AllocationMeter.PerOperation(static () => _sink = new byte[256], 10_000).BytesPerOperation;
        var allBytes = AllocationMeter.PerOperation(KnownOperation, 10_000).BytesPerOperation;
        var stringBytes = allBytes - arrayBytes;

        var profile = AllocationProfiler.PerOperation(KnownOperation);

        profile.EventName.Should().Be("AllocationSampled", "the runtime is .NET 9 or later");
        profile.Samples.Should().BeGreaterThan(500, "the profile ran long enough to estimate anything: {0}", profile);
        var array = profile.Types[0];
        array.TypeName.Should().Be("System.Byte[]", "the array is the largest allocation: {0}", profile);
        array.BytesPerOperation.Should().BeApproximately(arrayBytes, 4 * arrayBytes / Math.Sqrt(array.Samples), profile.ToString());
        var text = profile.Types.Should().Contain(t => t.TypeName == "System.String").Which;
        text.BytesPerOperation.Should().BeApproximately(stringBytes, 4 * stringBytes / Math.Sqrt(text.Samples), profile.ToString());
        profile.BytesPerOperation.Should().BeApproximately(allBytes, 4 * allBytes / Math.Sqrt(profile.Samples), profile.ToString());
        profile.Describe().Should().StartWith("allocated in, own code with what it called: PerfBudgets.Diagnostics.Tests.AllocationProfilerTests.KnownOperation ≈ ", "the program's own method first")
            .And.Contain("; top types per op: System.Byte[] ≈ ");
    }

    [Fact]
    public void Excluding_the_caller_counts_the_other_threads_and_not_the_calling_one()
    {
        // The calling thread allocates an array of a type only this test makes (104 B, the size of a 40-char string):
        // other threads of the process (the runtime's, the test host's) allocate strings of their own now and then,
        // and one of those sampled in the window must not read as the caller's.
        static void MarkerHereArrayOnThePool()
        {
            _sink = new CallerMarker[10];
            using var done = new ManualResetEventSlim();
            ThreadPool.UnsafeQueueUserWorkItem(d =>
            {
                _sink = new byte[10_000];
                ((ManualResetEventSlim)d!).Set();
            }, done);
            done.Wait();
        }

        var profile = AllocationProfiler.PerOperationExcludingCaller(MarkerHereArrayOnThePool);

        profile.Types.Should().NotBeEmpty();
        var array = profile.Types[0];
        array.TypeName.Should().Be("System.Byte[]", profile.ToString());
        array.BytesPerOperation.Should().BeApproximately(10_024, 4 * 10_024 / Math.Sqrt(array.Samples), profile.ToString());
        profile.Types.Should().NotContain(t => t.TypeName.Contains(nameof(CallerMarker), StringComparison.Ordinal), "the markers are the calling thread's: {0}", profile);
    }

    private sealed class CallerMarker;

    [Fact]
    public void The_upscaling_divides_by_the_probability_that_an_object_of_that_size_is_sampled()
    {
        // p = 1/102,400 per byte: a 1-byte object stands for ~102,400 B, an object far larger than 100 KB for itself.
        AllocationProfiler.Upscale(1).Should().BeApproximately(102_400, 1);
        AllocationProfiler.Upscale(280).Should().BeApproximately(280 / (1 - Math.Pow(1 - (1 / 102_400.0), 280)), 1e-6);
        AllocationProfiler.Upscale(10_000_000).Should().BeApproximately(10_000_000, 1);
    }

    [Fact]
    public void A_failing_allocation_budget_names_the_top_types_under_the_failure_line()
    {
        var gate = _budgets.Gate(requireOptimizedBuild: true);
        var measured = AllocationMeter.PerOperation(KnownOperation, 10_000);

        var act = () => gate.Check("Test.KnownOperation.BytesPerOp", measured.BytesPerOperation, measured.ToString(),
            () => AllocationProfiler.PerOperation(KnownOperation).ToAttribution());

        var lines = act.Should().Throw<BudgetExceededException>().Which.Message.Split(Environment.NewLine);
        lines.Should().HaveCount(2);
        lines[0].Should().StartWith("Test.KnownOperation.BytesPerOp: 384 B/op > budget 300 (+28%)");
        lines[1].Should().StartWith("  allocated in, own code with what it called: PerfBudgets.Diagnostics.Tests.AllocationProfilerTests.KnownOperation ≈ ")
            .And.Contain("; top types per op: System.Byte[] ≈ ");
        var recorded = ResultStore.ReadAll(gate.Store.ResultsPath).Single();
        recorded.Attribution!.Entries[0].Name.Should().Be("System.Byte[]");
        recorded.Attribution.Entries[0].Unit.Should().Be("B/op");
    }
}
