using System.Globalization;
using System.Text.Json;
using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using SystemUnderTest.Json;

namespace Alloc.Json;

public sealed class JsonAllocationTests
{
    private readonly BudgetGate _gate = SuiteGate.Current;

    public static TheoryData<string, string> StrategiesAndShapes => new()
    {
        { "StackPool", "Single" },
        { "StackPool", "List9" },
        { "Recyclable", "Single" },
        { "Recyclable", "List9" },
        { "BufferWriter", "Single" },
        { "BufferWriter", "List9" },
    };

    [Fact]
    public void Json_Serialize_SingleEmployee_PooledWriter_BytesPerOp()
    {
        var operations = _gate.Book.IntParameter("Alloc.Json.Operations");
        var json = EmployeeJson.Default;
        var pool = new BufferWriterPool(new JsonPoolOptions(), json);
        var employee = EmployeeData.Single;
        var written = 0;
        void Serialize()
        {
            var buffer = pool.Rent();
            JsonSerializer.Serialize(buffer.JsonWriter, employee, json.Employee.Write);
            buffer.JsonWriter.Flush();
            written = buffer.WrittenCount;
            pool.Return(buffer);
        }

        var measurement = AllocationMeter.PerOperation(Serialize, operations);

        written.Should().Be(JsonSerializer.SerializeToUtf8Bytes(employee, json.Employee.Write).Length, "the measured operation really serialized the employee");
        _gate.Check("Json.Serialize.SingleEmployee.PooledWriter.BytesPerOp", measurement.BytesPerOperation, measurement.ToString(),
            () => AllocationProfiler.PerOperation(Serialize).ToAttribution());
    }

    [Theory]
    [MemberData(nameof(StrategiesAndShapes))]
    public void Json_RoundTrip_BytesPerOp(string strategyName, string shape)
    {
        var strategies = new JsonStrategies(new JsonPoolOptions());
        var strategy = strategies.All.Single(s => s.Name == strategyName);
        var graph = MeasureRoundTrip(strategy, shape, strategies.Json, out var graphBytes);

        var overhead = graph.BytesPerOperation - graphBytes;
        _gate.Check($"Json.RoundTrip.{strategyName}.{shape}.BytesPerOp", graph.BytesPerOperation,
            string.Create(CultureInfo.InvariantCulture, $"object graph {graphBytes:0} B + {overhead:0} B overhead; {graph}"),
            () => AllocationProfiler.PerOperation(RoundTripOperation(strategy, shape, strategies.Json)).ToAttribution());
    }

    [Theory]
    [InlineData("Single")]
    [InlineData("List9")]
    public void Json_RoundTrip_Bytes_extra_allocation_is_reported_for_contrast(string shape)
    {
        var strategies = new JsonStrategies(new JsonPoolOptions());
        var measurement = MeasureRoundTrip(strategies.Bytes, shape, strategies.Json, out var graphBytes);
        var jsonLength = shape == "Single"
            ? JsonSerializer.SerializeToUtf8Bytes(EmployeeData.Single, strategies.Json.Employee.Write).Length
            : JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(9), strategies.Json.List.Write).Length;

        // The byte[] path allocates the graph plus one array holding the JSON (length + 24 B array header, rounded to 8).
        var extra = measurement.BytesPerOperation - graphBytes;
        extra.Should().BeGreaterThanOrEqualTo(jsonLength, "the byte[] path allocates at least the JSON's array");
        _gate.Observe($"Json.RoundTrip.Bytes.{shape}.BytesPerOp", measurement.BytesPerOperation, "B/op", measurement.ToString());
        _gate.Observe($"Json.RoundTrip.Bytes.{shape}.ExtraBytesPerOp", extra, "B/op",
            string.Create(CultureInfo.InvariantCulture, $"beyond the {graphBytes:0} B object graph; the JSON is {jsonLength} B"));
    }

    [Fact]
    public void Json_Pool_Leak_after_concurrent_round_trips()
    {
        var roundTrips = _gate.Book.IntParameter("Alloc.Json.Leak.RoundTrips");
        var threads = _gate.Book.IntParameter("Alloc.Json.Leak.Threads");

        // A bound below the thread count, so the pools must drop surplus buffers rather than grow.
        var options = new JsonPoolOptions { MaximumRetainedBuffers = threads / 2 };
        var strategies = new JsonStrategies(options);
        var pooled = new IJsonRoundTripStrategy[] { strategies.StackPool, strategies.Recyclable, strategies.BufferWriter };
        var employee = EmployeeData.Single;
        foreach (var strategy in pooled)
        {
            RunOnThreads(threads, roundTrips / threads, () => strategy.RoundTrip(employee, strategies.Json.Employee).Id.Should().Be(employee.Id));
        }

        var outstanding = pooled.Sum(s => s.Counters.Outstanding);
        var overBound = Math.Max(0, strategies.StackPool.Pool.Counters.Retained - strategies.StackPool.Pool.Bound)
            + Math.Max(0, strategies.BufferWriter.Pool.Counters.Retained - strategies.BufferWriter.Pool.Bound)
            + Math.Max(0, strategies.Recyclable.Pool.Manager.SmallBlocksFree - strategies.Recyclable.Pool.BoundBlocks);
        var detail = string.Join("; ", pooled.Select(s => $"{s.Name} {s.Counters}"));
        pooled.Should().OnlyContain(s => s.Counters.Rented >= roundTrips / threads * threads, "every round trip rented a buffer");
        _gate.Check("Json.Pool.Leak.Outstanding", outstanding, detail);
        _gate.Check("Json.Pool.Leak.RetainedOverBound", overBound, string.Create(CultureInfo.InvariantCulture, $"bound {options.MaximumRetainedBuffers} buffers; {detail}"));
    }

    private AllocationMeasurement MeasureRoundTrip(IJsonRoundTripStrategy strategy, string shape, EmployeeJson json, out double graphBytes)
    {
        var operations = _gate.Book.IntParameter("Alloc.Json.Operations");
        return shape switch
        {
            "Single" => Measure(strategy, EmployeeData.Single, json.Employee, operations, out graphBytes),
            "List9" => Measure(strategy, EmployeeData.List(9), json.List, operations, out graphBytes),
            _ => throw new ArgumentOutOfRangeException(nameof(shape), shape, "Single or List9"),
        };
    }

    // The same round trip MeasureRoundTrip measures, for the diagnosis of a failing budget.
    private static Action RoundTripOperation(IJsonRoundTripStrategy strategy, string shape, EmployeeJson json)
    {
        if (shape == "Single")
        {
            var employee = EmployeeData.Single;
            return () => strategy.RoundTrip(employee, json.Employee);
        }

        var list = EmployeeData.List(9);
        return () => strategy.RoundTrip(list, json.List);
    }

    /// <summary>
    /// The object graph is measured once per shape as what deserializing its JSON from a ready array allocates:
    /// exactly the objects, strings, arrays and list storage the value consists of, and nothing of serialization.
    /// </summary>
    private static AllocationMeasurement Measure<T>(IJsonRoundTripStrategy strategy, T value, JsonShape<T> shape, int operations, out double graphBytes)
    {
        var utf8Json = JsonSerializer.SerializeToUtf8Bytes(value, shape.Write);
        graphBytes = AllocationMeter.PerOperation(() => JsonSerializer.Deserialize(utf8Json, shape.Read), operations).BytesPerOperation;
        return AllocationMeter.PerOperation(() => strategy.RoundTrip(value, shape), operations);
    }

    private static void RunOnThreads(int threads, int perThread, Action operation)
    {
        using var start = new Barrier(threads);
        var failures = new System.Collections.Concurrent.ConcurrentQueue<Exception>();
        var workers = Enumerable.Range(0, threads).Select(_ => new Thread(() =>
        {
            start.SignalAndWait();
            try
            {
                for (var i = 0; i < perThread; i++)
                {
                    operation();
                }
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                failures.Enqueue(e);
            }
        })).ToList();
        workers.ForEach(w => w.Start());
        workers.ForEach(w => w.Join());
        failures.Should().BeEmpty();
    }
}
