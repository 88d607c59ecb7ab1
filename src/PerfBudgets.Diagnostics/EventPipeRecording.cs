using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing.Etlx;
using PerfBudgets.Measuring;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// Runs work under an EventPipe session on a process and hands the recorded trace to a reader, for the meters and
/// profilers that read a process's runtime events (<see cref="BlockingMeter"/>, <c>Diagnosing.CpuProfiler</c>).
/// </summary>
/// <remarks>
/// The session's stream is copied to a <c>.nettrace</c> file in a temporary folder by a dedicated thread while the work
/// runs; the session is stopped (its rundown names the JIT-compiled methods), the file is converted to TraceEvent's
/// <see cref="TraceLog"/>, and the folder is deleted after the reader has run.
/// </remarks>
internal static class EventPipeRecording
{
    private static readonly TimeSpan StreamEndTimeout = TimeSpan.FromSeconds(60);

    /// <summary>
    /// Records <paramref name="providers"/> on <paramref name="processId"/> while <paramref name="run"/> runs, then
    /// calls <paramref name="read"/> with the trace and the OS id of the thread that copied the stream (a thread of
    /// this process, which an in-process profile leaves out).
    /// </summary>
    public static async Task<TResult> RecordAsync<TRun, TResult>(int processId, IReadOnlyList<EventPipeProvider> providers,
        Func<Task<TRun>> run, Func<TraceLog, TRun, long, TResult> read)
    {
        var folder = Directory.CreateTempSubdirectory("perfbudgets-eventpipe-");
        try
        {
            var tracePath = Path.Combine(folder.FullName, "session.nettrace");
            var client = new DiagnosticsClient(processId);
            long copyThread = -1;
            TRun ran;
            using (var session = client.StartEventPipeSession(providers, requestRundown: true, circularBufferMB: 256))
            {
                var copy = Task.Factory.StartNew(() =>
                {
                    copyThread = OsThread.CurrentId() ?? -1;
                    using var file = File.Create(tracePath);
                    session.EventStream.CopyTo(file);
                }, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

                try
                {
                    ran = await run();
                }
                finally
                {
                    session.Stop();
                }

                if (!copy.Wait(StreamEndTimeout))
                {
                    throw new TimeoutException($"The EventPipe stream did not end within {StreamEndTimeout.TotalSeconds} s of stopping the session.");
                }
            }

            var etlxPath = TraceLog.CreateFromEventPipeDataFile(tracePath);
            using var log = new TraceLog(etlxPath);
            return read(log, ran, copyThread);
        }
        finally
        {
            try
            {
                folder.Delete(recursive: true);
            }
            catch (IOException)
            {
                // A leftover temporary trace is harmless; what was measured matters more.
            }
        }
    }
}
