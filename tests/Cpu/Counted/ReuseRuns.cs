using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace Cpu.Counted;

/// <summary>
/// The runs <see cref="CountReuseTests"/> judges, of each kind (a workload host's run, a served workload, a server's
/// session): counted into an empty store, counted again (reused), and counted once more after one byte is appended to
/// the app's assembly in the copy of the suite's folder they share. The three kinds run side by side within each of the
/// two phases: Callgrind runs one thread at a time, so two cores count two runs at once, and a count does not depend on
/// its neighbours.
/// </summary>
internal sealed record ReuseRuns(
    (InstructionMeasurement First, InstructionMeasurement Again, InstructionMeasurement Changed) InProcess,
    ((InstructionMeasurement Measurement, string Check) First, (InstructionMeasurement Measurement, string Check) Again,
        (InstructionMeasurement Measurement, string Check) More, (InstructionMeasurement Measurement, string Check) Changed) Served,
    ((InstructionMeasurement Measurement, bool Started) First, (InstructionMeasurement Measurement, bool Started) Again,
        (InstructionMeasurement Measurement, bool Started) Changed) Session)
{
    private const string Workload = "HPack.Decode.TypicalRequest";
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    /// <summary>Counts every run, once the suite's own counted runs are done, in a temporary copy and store it deletes after.</summary>
    public static ReuseRuns Count(CountedRuns runs)
    {
        // The suite's own counted runs read where the store is as they start: they finish first, so that none of them
        // reuses from, or stores into, this store.
        Task.WhenAll(runs.InProcess, runs.Server, runs.Startup, runs.FileCopy).ContinueWith(_ => { }, TaskScheduler.Default).GetAwaiter().GetResult();
        var folder = Path.Combine(Path.GetTempPath(), "perfgate-reuse-" + Guid.NewGuid().ToString("N"));
        var host = Path.Combine(folder, "host");
        var saved = Environment.GetEnvironmentVariable(HarnessEnvironment.ReuseDirectoryVariable);
        try
        {
            Copy(AppContext.BaseDirectory, host);
            Environment.SetEnvironmentVariable(HarnessEnvironment.ReuseDirectoryVariable, Path.Combine(folder, "store"));
            var inProcess = Task.Run(() => (First: CountRun(host), Again: CountRun(host)));
            var served = Task.Run(() => (First: CountServed(host, copies: 2), Again: CountServed(host, copies: 2), More: CountServed(host, copies: 3)));
            var session = Task.Run(() => (First: CountSession(host), Again: CountSession(host)));
            Task.WaitAll(inProcess, served, session);

            // Appended bytes leave the assembly loadable and its code as it was: only the key can tell them apart.
            using (var library = File.Open(Path.Combine(host, "SystemUnderTest.dll"), FileMode.Append))
            {
                library.WriteByte(0);
            }

            var inProcessChanged = Task.Run(() => CountRun(host));
            var servedChanged = Task.Run(() => CountServed(host, copies: 2));
            var sessionChanged = Task.Run(() => CountSession(host));
            Task.WaitAll(inProcessChanged, servedChanged, sessionChanged);
            return new ReuseRuns(
                (inProcess.Result.First, inProcess.Result.Again, inProcessChanged.Result),
                (served.Result.First, served.Result.Again, served.Result.More, servedChanged.Result),
                (session.Result.First, session.Result.Again, sessionChanged.Result));
        }
        finally
        {
            Environment.SetEnvironmentVariable(HarnessEnvironment.ReuseDirectoryVariable, saved);
            if (Directory.Exists(folder))
            {
                Directory.Delete(folder, recursive: true);
            }
        }
    }

    private static InstructionMeasurement CountRun(string host)
    {
        var run = InstructionMeter.RunProcess(Path.Combine(host, "Cpu.Workloads.dll"), [Workload], Timeout);
        run.StandardOutput.Should().Contain($"workload {Workload} check ok");
        return run.Measurement(Workload);
    }

    private static (InstructionMeasurement Measurement, string Check) CountServed(string host, int copies)
    {
        var served = CallgrindWorkloadHost.Measure(Path.Combine(host, "Cpu.Workloads.dll"), ["--serve", "IO.FileCopy"], "IO.FileCopy",
            warmUpOperations: 2, operations: copies, rounds: 1, Timeout);
        served.Check.Should().StartWith("ok");
        return served;
    }

    // A short counted session of the app in the copy: a start, ten warm-up requests, one round of ten.
    private static (InstructionMeasurement Measurement, bool Started) CountSession(string host)
    {
        const string workload = "Api.DelayAsync";
        var assembly = Path.Combine(host, "SystemUnderTest.dll");
        var started = false;
        using var callgrind = new CallgrindServer();
        var (start, _) = AppProcess.PlannedStart(withEchoService: false, CallgrindServer.SteadyServerEnvironment, callgrind, assembly);
        var counts = callgrind.MeasureSessionAsync(start, host, ["ten requests, one round of ten"], async () =>
        {
            started = true;
            using var app = await AppProcess.StartAsync(TimeSpan.FromMinutes(3), CancellationToken.None, underCallgrind: callgrind,
                environment: CallgrindServer.SteadyServerEnvironment, assembly: assembly);
            using var probe = new PerfBudgets.Load.HttpKeepAliveProbe(app.EndPoint, "/api/delay/async?ms=0") { Timeout = TimeSpan.FromMinutes(2) };
            void Send() => probe.Send().Should().Be(200);
            CallgrindServer.WarmUp(app.ProcessId, Send, 10);
            return new Dictionary<string, InstructionMeasurement> { [workload] = callgrind.Measure(app.ProcessId, workload, Send, operations: 10, rounds: 1) };
        }).GetAwaiter().GetResult();
        return (counts[workload], started);
    }

    // The suite's output without the pinned runtime (the meter starts the host with the suite's own: its files are
    // then mapped from outside the copy, and the store keeps their digests like any other mapped file's).
    private static void Copy(string from, string to)
    {
        var runtime = Path.Combine(from, CountedRuntime.DirectoryName) + Path.DirectorySeparatorChar;
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories).Where(f => !f.StartsWith(runtime, StringComparison.Ordinal)))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }
}
