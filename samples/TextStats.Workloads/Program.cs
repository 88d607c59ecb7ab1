using PerfBudgets.Measuring;
using TextStats;

// Served one batch at a time (`run N` on standard input), for the CPU time compared with the base commit's build
// (PairedWorkloads): the same paragraph as the counted region below.
if (args is ["--serve", "Text.Add"])
{
    var served = new WordCounter();
    var text = Sample.Text(words: 200);
    ServedWorkload.Serve(n => { for (var i = 0; i < n; i++) served.Add(text); }, () => $"ok {served.DistinctWords} distinct words", Console.In, Console.Out);
    return;
}

// Every text is built before counting starts, and each counter has seen its words once, so what is counted is the
// steady state: a known word allocates nothing. Under the counted runtime tiering is off, so three warm-up
// operations compile every method once and for all.
var paragraph = Sample.Text(words: 200);
var counter = new WordCounter();
InstructionRegion.Measure("Text.Add", n => { for (var i = 0; i < n; i++) counter.Add(paragraph); }, operations: 200, warmUpOperations: 3);

// The same operation at two sizes, for the growth budget.
foreach (var size in new[] { 100, 10_000 })
{
    var text = Sample.Text(size);
    var sized = new WordCounter();
    InstructionRegion.Measure($"Text.Add{size}", n => { for (var i = 0; i < n; i++) sized.Add(text); }, operations: size == 100 ? 100 : 1, warmUpOperations: 3);
}

// A 256 KiB file, for the system-call budget: its reads are the system calls.
var file = Path.Combine(Path.GetTempPath(), $"textstats-{Environment.ProcessId}.txt");
File.WriteAllText(file, Sample.Text(words: 40_000));
// A small file counted through a handle kept open: two reads per count (its bytes, then the end), in repetitions of
// 4 operations, where one stray system call of the runtime's is a quarter of a call per operation.
var small = Path.Combine(Path.GetTempPath(), $"textstats-small-{Environment.ProcessId}.txt");
File.WriteAllText(small, Sample.Text(words: 2_000));
try
{
    var fromFiles = new WordCounter();
    InstructionRegion.Measure("Text.AddFile", n => { for (var i = 0; i < n; i++) fromFiles.AddFile(file); }, operations: 2, warmUpOperations: 3);
    using var handle = File.OpenHandle(small);
    var fromHandle = new WordCounter();
    InstructionRegion.Measure("Text.AddOpenFile", n => { for (var i = 0; i < n; i++) fromHandle.AddFrom(handle); }, operations: 4, warmUpOperations: 3);
}
finally
{
    File.Delete(file);
    File.Delete(small);
}

Console.WriteLine($"counted {counter.DistinctWords} distinct words");

/// <summary>Texts of a fixed vocabulary, the same in every run.</summary>
internal static class Sample
{
    private static readonly string[] Vocabulary = ["budget", "gate", "count", "alloc", "heap", "thread", "span", "pool", "queue", "lock"];

    public static string Text(int words) =>
        string.Join(' ', Enumerable.Range(0, words).Select(i => Vocabulary[(i * 7) % Vocabulary.Length] + ((i % 13) == 0 ? "," : string.Empty)));
}
