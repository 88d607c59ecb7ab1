using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// The host's side of an in-process workload counted on every thread: instead of marking a region itself (which counts
/// the calling thread only, see <see cref="InstructionRegion"/>), the host runs operations on command and is counted
/// from outside by <see cref="CallgrindWorkloadHost"/> the way <see cref="CallgrindServer"/> counts a server.
/// </summary>
/// <remarks>
/// The protocol is a line each way: the host writes <c>ready</c> once set up; each <c>run N</c> line runs N operations
/// and is answered <c>done</c>; <c>check</c> is answered with the workload's own check of its work; end of input ends
/// it. Reading a line and writing the answer are two system calls of the host per <c>run</c>, in every round alike.
/// </remarks>
public static class ServedWorkload
{
    /// <summary>Serves <paramref name="runOperations"/> on <paramref name="input"/> / <paramref name="output"/> until the input ends.</summary>
    /// <param name="runOperations">Runs the given number of operations and returns when they are done.</param>
    /// <param name="check">The workload's check of the work done so far (<c>ok ...</c> or <c>FAILED ...</c>).</param>
    /// <param name="input">Where the commands come from (the host's standard input).</param>
    /// <param name="output">Where the answers go (the host's standard output).</param>
    public static void Serve(Action<int> runOperations, Func<string> check, TextReader input, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(runOperations);
        ArgumentNullException.ThrowIfNull(check);
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(output);
        Answer(output, "ready");
        while (input.ReadLine() is { } line)
        {
            if (line == "check")
            {
                Answer(output, "check " + check());
            }
            else if (line.StartsWith("run ", StringComparison.Ordinal) && int.TryParse(line.AsSpan(4), NumberStyles.None, CultureInfo.InvariantCulture, out var operations) && operations > 0)
            {
                runOperations(operations);
                Answer(output, "done");
            }
            else
            {
                throw new InvalidOperationException($"Unknown command for a served workload: '{line}'.");
            }
        }
    }

    /// <summary>
    /// Waits for <paramref name="operation"/>, whose work runs on other threads (an asynchronous file copy's reads and
    /// writes on the pool), blocked on its kernel event, then rethrows what it failed with. Use it inside
    /// <c>runOperations</c> instead of <c>GetAwaiter().GetResult()</c>: that one spins before it blocks, and under
    /// Valgrind the spin is counted for as long as the pool takes to land the completion, so the count per operation
    /// moves between runs (this repository's file copy by 13%, against 1.8% waiting on the event).
    /// </summary>
    /// <param name="operation">The operation's task.</param>
    public static void Wait(Task operation)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ((IAsyncResult)operation).AsyncWaitHandle.WaitOne();
        operation.GetAwaiter().GetResult();
    }

    private static void Answer(TextWriter output, string line)
    {
        output.WriteLine(line);
        output.Flush();
    }
}
