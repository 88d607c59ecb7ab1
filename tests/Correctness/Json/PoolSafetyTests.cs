using System.Buffers;
using SystemUnderTest.Json;

namespace Correctness.Json;

public sealed class PoolSafetyTests
{
    private static readonly JsonPoolOptions Small = new() { MaximumRetainedBuffers = 4, InitialBufferBytes = 1_024, MaximumRetainedBufferBytes = 8 * 1_024 };

    [Fact]
    public void StackPool_hands_out_an_empty_stream_with_no_stale_bytes()
    {
        var pool = new MemoryStreamStackPool(Small);
        var first = pool.Rent();
        first.Write("secret of the previous request"u8);
        pool.Return(first);

        var second = pool.Rent();

        second.Should().BeSameAs(first, "the pool reuses the stream");
        second.Length.Should().Be(0);
        second.Position.Should().Be(0);
        second.GetBuffer().Should().OnlyContain(b => b == 0, "the previous user's bytes are wiped on return");
        pool.Return(second);
    }

    [Fact]
    public void StackPool_detects_double_return_and_use_after_return()
    {
        var pool = new MemoryStreamStackPool(Small);
        var stream = pool.Rent();
        pool.Return(stream);

        ((Action)(() => pool.Return(stream))).Should().Throw<JsonPoolMisuseException>().WithMessage("*returned twice*");
        ((Action)(() => stream.Write([1, 2, 3]))).Should().Throw<JsonPoolMisuseException>().WithMessage("*used after it was returned*");
        ((Action)(() => stream.GetBuffer())).Should().Throw<JsonPoolMisuseException>();
        ((Action)(() => new MemoryStreamStackPool(Small).Return(pool.Rent()))).Should().Throw<JsonPoolMisuseException>().WithMessage("*did not rent it*");
    }

    [Fact]
    public void StackPool_is_bounded_and_counts()
    {
        var pool = new MemoryStreamStackPool(Small);
        var rented = Enumerable.Range(0, 10).Select(_ => pool.Rent()).ToList();
        pool.Counters.Should().Be(new JsonPoolCounters(Rented: 10, Returned: 0, Dropped: 0, Retained: 0));
        pool.Counters.Outstanding.Should().Be(10);

        rented.ForEach(pool.Return);

        pool.Counters.Should().Be(new JsonPoolCounters(Rented: 10, Returned: 10, Dropped: 6, Retained: 4));
        pool.Counters.Outstanding.Should().Be(0);
    }

    [Fact]
    public void Pools_raise_BufferDropped_with_the_reason()
    {
        var stackPool = new MemoryStreamStackPool(Small);
        var writerPool = new BufferWriterPool(Small, new EmployeeJson(Small));
        var dropped = new List<(object? Pool, JsonBufferDropReason Reason, int Capacity)>();
        stackPool.BufferDropped += (sender, e) => dropped.Add((sender, e.Reason, e.CapacityBytes));
        writerPool.BufferDropped += (sender, e) => dropped.Add((sender, e.Reason, e.CapacityBytes));

        var streams = Enumerable.Range(0, Small.MaximumRetainedBuffers + 1).Select(_ => stackPool.Rent()).ToList();
        streams.ForEach(stackPool.Return);
        var big = writerPool.Rent();
        big.GetSpan(Small.MaximumRetainedBufferBytes + 1);
        writerPool.Return(big);

        dropped.Should().Equal(
            (stackPool, JsonBufferDropReason.PoolFull, Small.InitialBufferBytes),
            (writerPool, JsonBufferDropReason.TooLarge, Small.MaximumRetainedBufferBytes + 1));
    }

    [Fact]
    public void StackPool_drops_a_stream_that_grew_past_the_retained_size()
    {
        var pool = new MemoryStreamStackPool(Small);
        var stream = pool.Rent();
        stream.Write(new byte[Small.MaximumRetainedBufferBytes + 1]);
        pool.Return(stream);

        pool.Counters.Should().Be(new JsonPoolCounters(1, 1, 1, 0));
        pool.Rent().Should().NotBeSameAs(stream);
    }

    [Fact]
    public void BufferWriter_hands_out_an_empty_writer_with_no_stale_bytes()
    {
        var pool = new BufferWriterPool(Small, new EmployeeJson(Small));
        var first = pool.Rent();
        first.Write("secret of the previous request"u8);
        first.JsonWriter.WriteStringValue("more");
        first.JsonWriter.Flush();
        pool.Return(first);

        var second = pool.Rent();

        second.Should().BeSameAs(first);
        second.WrittenCount.Should().Be(0);
        second.JsonWriter.BytesCommitted.Should().Be(0);
        second.JsonWriter.CurrentDepth.Should().Be(0);
        second.GetSpan().ToArray().Should().HaveCount(Small.InitialBufferBytes).And.OnlyContain(b => b == 0);
        pool.Return(second);
    }

    [Fact]
    public void BufferWriter_detects_double_return_and_use_after_return()
    {
        var pool = new BufferWriterPool(Small, new EmployeeJson(Small));
        var writer = pool.Rent();
        pool.Return(writer);

        ((Action)(() => pool.Return(writer))).Should().Throw<JsonPoolMisuseException>().WithMessage("*returned twice*");
        ((Action)(() => writer.GetSpan())).Should().Throw<JsonPoolMisuseException>().WithMessage("*used after it was returned*");
        ((Action)(() => _ = writer.WrittenCount)).Should().Throw<JsonPoolMisuseException>();
        ((Action)(() => _ = writer.JsonWriter)).Should().Throw<JsonPoolMisuseException>();
        ((Action)(() => new BufferWriterPool(Small, EmployeeJson.Default).Return(pool.Rent()))).Should().Throw<JsonPoolMisuseException>().WithMessage("*did not rent it*");
    }

    [Fact]
    public void BufferWriter_is_bounded_and_counts()
    {
        var pool = new BufferWriterPool(Small, new EmployeeJson(Small));
        var rented = Enumerable.Range(0, 10).Select(_ => pool.Rent()).ToList();
        rented.Distinct().Should().HaveCount(10);

        rented.ForEach(pool.Return);

        pool.Counters.Should().Be(new JsonPoolCounters(Rented: 10, Returned: 10, Dropped: 6, Retained: 4));
    }

    [Fact]
    public void BufferWriter_grows_by_doubling_and_drops_a_writer_that_grew_too_large()
    {
        var pool = new BufferWriterPool(Small, new EmployeeJson(Small));
        var writer = pool.Rent();
        writer.Write(new byte[1_500]);
        writer.Capacity.Should().Be(2_048);
        writer.Write(new byte[Small.MaximumRetainedBufferBytes]);
        writer.WrittenCount.Should().Be(1_500 + Small.MaximumRetainedBufferBytes);
        pool.Return(writer);

        pool.Counters.Should().Be(new JsonPoolCounters(1, 1, 1, 0));
    }

    [Fact]
    public void Recyclable_hands_out_an_empty_stream_with_no_stale_bytes()
    {
        var pool = new RecyclableStreamPool(Small);
        var first = pool.Rent();
        first.Write("secret of the previous request"u8);
        pool.Return(first);

        var second = pool.Rent();
        second.Length.Should().Be(0);
        var span = second.GetSpan(Small.InitialBufferBytes);

        // The same pooled block comes back, wiped by ZeroOutBuffer.
        pool.Counters.Retained.Should().Be(0);
        span.ToArray().Should().OnlyContain(b => b == 0);
        pool.Return(second);
    }

    [Fact]
    public void Recyclable_detects_double_return_and_use_after_return()
    {
        var pool = new RecyclableStreamPool(Small);
        var stream = pool.Rent();
        stream.Write([1, 2, 3]);
        pool.Return(stream);

        ((Action)(() => pool.Return(stream))).Should().Throw<JsonPoolMisuseException>().WithMessage("*returned twice*");
        ((Action)(() => stream.Write([1, 2, 3]))).Should().Throw<ObjectDisposedException>();
        ((Action)(() => stream.ToArray())).Should().Throw<Exception>();
    }

    [Fact]
    public void Recyclable_is_bounded_and_counts()
    {
        var pool = new RecyclableStreamPool(Small);
        var rented = Enumerable.Range(0, 10).Select(_ => pool.Rent()).ToList();
        rented.ForEach(s => s.Write(new byte[10]));
        pool.Counters.Outstanding.Should().Be(10);

        rented.ForEach(pool.Return);

        pool.Counters.Outstanding.Should().Be(0);
        pool.Counters.Rented.Should().Be(10);
        pool.Manager.SmallBlocksFree.Should().Be(pool.BoundBlocks, "ten blocks came back and the pool keeps at most its bound");
        pool.Manager.SmallPoolFreeSize.Should().BeLessThanOrEqualTo(pool.Settings.MaximumSmallPoolFreeBytes);
    }

    [Fact]
    public void A_strategy_returns_its_buffer_when_the_round_trip_throws()
    {
        var strategies = new JsonStrategies(Small);

        // Serializes fine, then the read-back refuses the string as longer than MaximumStringBytes.
        var bad = EmployeeData.Single with { Notes = new string('x', Small.MaximumStringBytes + 1) };
        foreach (var strategy in strategies.All)
        {
            var act = () => strategy.RoundTrip(bad, strategies.Json.Employee);

            act.Should().Throw<System.Text.Json.JsonException>(strategy.Name);
            strategy.Counters.Outstanding.Should().Be(0, strategy.Name);
        }
    }
}
