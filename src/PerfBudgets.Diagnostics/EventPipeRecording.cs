using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing.Etlx;
using PerfBudgets.Measuring;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// An EventPipe session on a process whose stream is kept in a file, for the meters and profilers that read a
/// process's runtime events (<see cref="BlockingMeter"/>, <c>Diagnosing.CpuProfiler</c>).
/// </summary>
/// <remarks>
/// The session's stream is copied to a <c>.nettrace</c> file in a temporary folder by a dedicated thread while the work
/// runs; the session is stopped (its rundown names the JIT-compiled methods), the file is converted to TraceEvent's
/// <see cref="TraceLog"/>, and the folder is deleted when the recording is disposed.
/// </remarks>
internal sealed class EventPipeRecording : IDisposable
{
    private static readonly TimeSpan StreamEndTimeout = TimeSpan.FromSeconds(60);

    private readonly DirectoryInfo _folder;
    private readonly string _tracePath;
    private readonly EventPipeSession _session;
    private readonly Task _copy;
    private long _copyThread = -1;
    private bool _stopped;

    private EventPipeRecording(DiagnosticsClient client, IReadOnlyList<EventPipeProvider> providers)
    {
        _folder = Directory.CreateTempSubdirectory("perfbudgets-eventpipe-");
        _tracePath = Path.Combine(_folder.FullName, "session.nettrace");
        try
        {
            _session = client.StartEventPipeSession(providers, requestRundown: true, circularBufferMB: 256);
        }
        catch
        {
            DeleteFolder();
            throw;
        }

        _copy = Task.Factory.StartNew(() =>
        {
            _copyThread = OsThread.CurrentId() ?? -1;
            using var file = File.Create(_tracePath);
            _session.EventStream.CopyTo(file);
        }, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }

    /// <summary>The OS id of the thread of this process that copies the stream (an in-process profile leaves it out).</summary>
    public long CopyThread => _copyThread;

    /// <summary>Starts a session with <paramref name="providers"/> through <paramref name="client"/>.</summary>
    public static EventPipeRecording Start(DiagnosticsClient client, IReadOnlyList<EventPipeProvider> providers) => new(client, providers);

    /// <summary>
    /// Records <paramref name="providers"/> on <paramref name="processId"/> while <paramref name="run"/> runs, then
    /// calls <paramref name="read"/> with the trace and the OS id of the thread that copied the stream.
    /// </summary>
    public static async Task<TResult> RecordAsync<TRun, TResult>(int processId, IReadOnlyList<EventPipeProvider> providers,
        Func<Task<TRun>> run, Func<TraceLog, TRun, long, TResult> read)
    {
        using var recording = Start(new DiagnosticsClient(processId), providers);
        TRun ran;
        try
        {
            ran = await run();
        }
        finally
        {
            recording.Stop();
        }

        return recording.Read(log => read(log, ran, recording.CopyThread));
    }

    /// <summary>Stops the session (the runtime then writes its rundown) and waits for the stream's end.</summary>
    /// <exception cref="TimeoutException">The stream did not end.</exception>
    public void Stop()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        try
        {
            _session.Stop();
        }
        catch (ServerNotAvailableException)
        {
            // The process has gone: its stream has ended with it.
        }

        if (!_copy.Wait(StreamEndTimeout))
        {
            throw new TimeoutException($"The EventPipe stream did not end within {StreamEndTimeout.TotalSeconds} s of stopping the session.");
        }
    }

    /// <summary>Stops the session if it still runs and reads the trace.</summary>
    public TResult Read<TResult>(Func<TraceLog, TResult> read)
    {
        ArgumentNullException.ThrowIfNull(read);
        Stop();
        var etlxPath = TraceLog.CreateFromEventPipeDataFile(_tracePath);
        using var log = new TraceLog(etlxPath);
        return read(log);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        try
        {
            Stop();
        }
        finally
        {
            _session.Dispose();
            DeleteFolder();
        }
    }

    private void DeleteFolder()
    {
        try
        {
            _folder.Delete(recursive: true);
        }
        catch (IOException)
        {
            // A leftover temporary trace is harmless; what was measured matters more.
        }
    }
}
