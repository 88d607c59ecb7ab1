using System.Globalization;
using PerfBudgets.Measuring;
using Shared.HPackStories;
using Shared.Workloads;
using SystemUnderTest.HPack;
using SystemUnderTest.Json;
using SystemUnderTest.Sockets;

namespace Cpu.Workloads;

/// <summary>
/// The in-process paths gated by instruction and system-call counts, by name: the HPACK codec, the four JSON
/// strategies on both shapes and the socket loops (the file copy, whose work runs on pool threads, is a
/// <see cref="ServedWorkloads">served workload</see>, counted on every thread). Each one warms up, then runs
/// <see cref="InstructionRegion.Measure"/>, and returns a check of the work it did. The corpus decode counts one
/// repetition (half a billion instructions; its repetitions agreed to within one instruction in 10 runs, and a second
/// one cost the suite about 20 s), the raw-data encode two.
/// </summary>
internal static class CountedWorkloads
{
    private static readonly Dictionary<string, Func<string>> Workloads = new(StringComparer.Ordinal)
    {
        ["HPack.Decode.TypicalRequest"] = DecodeTypicalRequest,
        ["HPack.Decode.Corpus"] = DecodeCorpus,
        ["HPack.Encode.GrpcResponse"] = EncodeGrpcResponse,
        ["HPack.Encode.RawData"] = EncodeRawData,
        ["Json.RoundTrip.Bytes.Single"] = () => RoundTrip("Bytes", "Single"),
        ["Json.RoundTrip.Bytes.List9"] = () => RoundTrip("Bytes", "List9"),
        ["Json.RoundTrip.StackPool.Single"] = () => RoundTrip("StackPool", "Single"),
        ["Json.RoundTrip.StackPool.List9"] = () => RoundTrip("StackPool", "List9"),
        ["Json.RoundTrip.Recyclable.Single"] = () => RoundTrip("Recyclable", "Single"),
        ["Json.RoundTrip.Recyclable.List9"] = () => RoundTrip("Recyclable", "List9"),
        ["Json.RoundTrip.BufferWriter.Single"] = () => RoundTrip("BufferWriter", "Single"),
        ["Json.RoundTrip.BufferWriter.List9"] = () => RoundTrip("BufferWriter", "List9"),
        ["Sockets.SaeaLoop"] = SaeaLoopMessages,
        ["Sockets.ValueTaskLoop"] = ValueTaskLoopMessages,
        ["Sockets.BlockingLoop"] = BlockingLoopMessages,
        ["Json.List.RoundTrip9"] = () => ListRoundTrip(9, operations: 20, warmUpOperations: 60),
        ["Json.List.RoundTrip1000"] = () => ListRoundTrip(1_000, operations: 1, warmUpOperations: 2),
        ["HPack.Block.RoundTrip10"] = () => BlockRoundTrip(10, operations: 100, warmUpOperations: 300),
        ["HPack.Block.RoundTrip100"] = () => BlockRoundTrip(100, operations: 10, warmUpOperations: 30),
    };

    public static IReadOnlyList<string> Names => [.. Workloads.Keys];

    public static string Run(string name) => Workloads.TryGetValue(name, out var run)
        ? run()
        : throw new ArgumentException($"No counted workload named '{name}'. Known: {string.Join(", ", Workloads.Keys)}.", nameof(name));

    private static string DecodeTypicalRequest()
    {
        var handler = new HeaderCounter();
        var (decoder, typical) = HPackWorkloads.PrimedDecoderAndTypicalRequest(handler);
        handler.Reset();
        InstructionRegion.Measure("HPack.Decode.TypicalRequest", n =>
        {
            for (var i = 0; i < n; i++)
            {
                decoder.Decode(typical, endHeaders: true, handler);
            }
        }, operations: 200, warmUpOperations: 500);
        return Check(handler.Headers % 10 == 0 && handler.Headers > 0, $"{handler.Headers} headers");
    }

    private static string DecodeCorpus()
    {
        var stories = HPackWorkloads.EncodedCorpusStories(HPackStoryArchive.Read(HPackWorkloads.CorpusArchivePath));
        var counter = new HeaderCounter();
        long headers = 0;
        InstructionRegion.Measure("HPack.Decode.Corpus", n =>
        {
            for (var i = 0; i < n; i++)
            {
                headers = HPackWorkloads.DecodeCorpus(stories, counter);
            }
        }, operations: 1, warmUpOperations: 1, repetitions: 1);
        return Check(headers > 300_000, $"{headers} headers");
    }

    private static string EncodeGrpcResponse()
    {
        var operation = HPackWorkloads.GrpcResponseOperation(new HPackEncoder());
        long written = 0;
        InstructionRegion.Measure("HPack.Encode.GrpcResponse", n =>
        {
            for (var i = 0; i < n; i++)
            {
                written += operation();
            }
        }, operations: 200, warmUpOperations: 500);
        return Check(written > 0, $"{written} bytes");
    }

    private static string EncodeRawData()
    {
        var stories = HPackWorkloads.RawCorpusStories(HPackStoryArchive.Read(HPackWorkloads.CorpusArchivePath));
        var buffer = new byte[1 << 16];
        long written = 0;
        InstructionRegion.Measure("HPack.Encode.RawData", n =>
        {
            for (var i = 0; i < n; i++)
            {
                written = HPackWorkloads.EncodeRawCorpus(stories, buffer);
            }
        }, operations: 1, warmUpOperations: 1, repetitions: 2);
        return Check(written > 300_000, $"{written} bytes");
    }

    private static string RoundTrip(string strategyName, string shape)
    {
        var strategies = new JsonStrategies(new JsonPoolOptions());
        var strategy = strategies.All.Single(s => s.Name == strategyName);
        var name = $"Json.RoundTrip.{strategyName}.{shape}";
        if (shape == "Single")
        {
            var employee = EmployeeData.Single;
            Employee? back = null;
            InstructionRegion.Measure(name, n =>
            {
                for (var i = 0; i < n; i++)
                {
                    back = strategy.RoundTrip(employee, strategies.Json.Employee);
                }
            }, operations: 100, warmUpOperations: 300);
            return Check(back is not null && SameJson(back, employee, strategies.Json.Employee.Write), "equal employee");
        }

        var list = EmployeeData.List(9);
        List<Employee>? backList = null;
        InstructionRegion.Measure(name, n =>
        {
            for (var i = 0; i < n; i++)
            {
                backList = strategy.RoundTrip(list, strategies.Json.List);
            }
        }, operations: 20, warmUpOperations: 60);
        return Check(backList is not null && SameJson(backList, list, strategies.Json.List.Write), "equal list");
    }

    private static string SaeaLoopMessages()
    {
        using var loop = new SaeaLoop(new SocketLoopOptions());
        long sent = 0;
        InstructionRegion.Measure("Sockets.SaeaLoop", n => sent += loop.Run(n).Messages, operations: 200, warmUpOperations: 500);
        return Check(sent == 500 + (3 * 200), $"{sent} messages");
    }

    private static string ValueTaskLoopMessages()
    {
        using var loop = new ValueTaskLoop(new SocketLoopOptions());
        long sent = 0;
        InstructionRegion.Measure("Sockets.ValueTaskLoop", n => sent += loop.RunAsync(n).GetAwaiter().GetResult().Messages, operations: 200, warmUpOperations: 500);
        return Check(sent == 500 + (3 * 200), $"{sent} messages");
    }

    // The blocking loop, counted beside the two asynchronous ones: the seeds' async-against-blocking comparison in
    // counts (recorded as figures, not gated).
    private static string BlockingLoopMessages()
    {
        using var loop = new BlockingLoop(new SocketLoopOptions());
        long sent = 0;
        InstructionRegion.Measure("Sockets.BlockingLoop", n => sent += loop.Run(n).Messages, operations: 200, warmUpOperations: 500);
        return Check(sent == 500 + (3 * 200), $"{sent} messages");
    }

    // The growth workloads: the same operation at two sizes, for the growth-exponent budgets. The list is written the
    // way GET /api/employees writes it (EmployeesController.WriteList into a pooled buffer writer) and read back the way
    // POST /api/employees/echo reads it.
    private static string ListRoundTrip(int count, int operations, int warmUpOperations)
    {
        var options = new JsonPoolOptions();
        var strategies = new JsonStrategies(options);
        var controller = new EmployeesController(strategies, Microsoft.Extensions.Options.Options.Create(options));
        var pool = strategies.BufferWriter.Pool;
        List<Employee>? back = null;
        InstructionRegion.Measure($"Json.List.RoundTrip{count}", n =>
        {
            for (var i = 0; i < n; i++)
            {
                var buffer = pool.Rent();
                try
                {
                    controller.WriteList(buffer.JsonWriter, EmployeeData.First(count));
                    back = System.Text.Json.JsonSerializer.Deserialize(buffer.WrittenSpan, strategies.Json.List.Read);
                }
                finally
                {
                    pool.Return(buffer);
                }
            }
        }, operations, warmUpOperations);
        return Check(back is not null && SameJson(back, EmployeeData.List(count), strategies.Json.List.Write), $"equal list of {count}");
    }

    // A header block of N distinct headers as a connection's first request: a new encoder and decoder per block (64 KiB
    // tables, so every header is a Huffman-coded literal inserted into both tables, none evicted), encoded then decoded.
    private static string BlockRoundTrip(int headers, int operations, int warmUpOperations)
    {
        var block = HPackWorkloads.Bytes([.. Enumerable.Range(0, headers).Select(i => (
            string.Create(CultureInfo.InvariantCulture, $"x-header-{i:D3}"),
            string.Create(CultureInfo.InvariantCulture, $"value-{i * 7_919 % 10_007}-{i * 31:x5}")))]);
        var buffer = new byte[64 * 1024];
        var counter = new HeaderCounter();
        InstructionRegion.Measure($"HPack.Block.RoundTrip{headers}", n =>
        {
            for (var i = 0; i < n; i++)
            {
                var written = HPackWorkloads.EncodeBlock(new HPackEncoder(new HPackEncoderOptions { MaxDynamicTableSize = 65_536 }), buffer, block, null, null);
                new HPackDecoder(new HPackDecoderOptions { MaxDynamicTableSize = 65_536, MaxHeaderListSize = 1 << 20 })
                    .Decode(buffer.AsSpan(0, written), endHeaders: true, counter);
            }
        }, operations, warmUpOperations);
        return Check(counter.Headers == (long)headers * (warmUpOperations + (3 * operations)), $"{counter.Headers} headers");
    }

    private static bool SameJson<T>(T actual, T expected, System.Text.Json.Serialization.Metadata.JsonTypeInfo<T> typeInfo) =>
        System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(actual, typeInfo).AsSpan().SequenceEqual(System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(expected, typeInfo));

    internal static string Check(bool ok, string what) =>
        string.Create(CultureInfo.InvariantCulture, $"{(ok ? "ok" : "FAILED")} {what.Replace(' ', '_')}");
}
