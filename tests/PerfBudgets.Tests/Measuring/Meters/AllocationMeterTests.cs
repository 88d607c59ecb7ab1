using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// The meter's own accuracy, in exact byte counts that can be explained (as BenchmarkDotNet's tests do).
public sealed class AllocationMeterTests
{
    private static object? _sink;

    [Fact]
    public void An_empty_operation_allocates_nothing()
    {
        var measured = AllocationMeter.PerOperation(static () => { }, 10_000);

        measured.TotalBytes.Should().Be(0);
    }

    [Fact]
    public void A_64_byte_array_costs_its_length_plus_the_array_header()
    {
        // On 64-bit: 8 B object header + 8 B method table + 8 B length = 24 B, then 64 B of data.
        var measured = AllocationMeter.PerOperation(static () => _sink = new byte[64], 10_000);

        measured.BytesPerOperation.Should().Be(88);
    }

    [Fact]
    public async Task The_process_wide_meter_sees_allocations_made_on_other_threads()
    {
        var measured = await AllocationMeter.PerOperationProcessWideAsync(
            static async () =>
            {
                await Task.Yield();
                _sink = new byte[10_000];
            },
            operations: 1_000,
            warmupOperations: 100);

        // 10,024 B for the array, plus the awaited state machine's box; never less than the array.
        measured.BytesPerOperation.Should().BeInRange(10_024, 10_024 + 512);
    }

    [Fact]
    public void Rejects_a_meaningless_operation_count()
    {
        var act = () => AllocationMeter.PerOperation(static () => { }, 0);

        act.Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public void Excluding_the_caller_takes_out_what_the_calling_thread_allocates()
    {
        var measured = AllocationMeter.PerOperationExcludingCaller(static () => _sink = new byte[64], 10_000, batches: 3);

        measured.CallerBytesPerOperation.Should().Be(88);
        measured.BytesPerOperationByBatch.Should().HaveCount(3);
        measured.Smallest.Should().BeLessThan(1, "the only allocation was the caller's own");
    }

    [Fact]
    public void Excluding_the_caller_keeps_what_other_threads_allocate()
    {
        static void AllocateOnThePool()
        {
            using var done = new ManualResetEventSlim();
            ThreadPool.UnsafeQueueUserWorkItem(_ =>
            {
                _sink = new byte[10_000];
                done.Set();
            }, null);
            done.Wait();
        }

        var measured = AllocationMeter.PerOperationExcludingCaller(AllocateOnThePool, 1_000, batches: 3);

        // 10,024 B for the array on a pool thread; the event and the work item's closure are the caller's and come out.
        measured.Smallest.Should().BeInRange(10_024, 10_024 + 512);
    }
}
