using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace Cpu.Counted;

// A counted run is reused while its inputs are byte-identical, and counted again as soon as one byte of the code under
// test changes: the package's store, seen from outside as an adopter sees it (PERF_REUSE_DIR, the measurement's
// Reused), on a copy of this suite's host folder so the suite's own runs are untouched.
public sealed class CountReuseTests(CountedRuns runs) : IDisposable
{
    private const string Workload = "HPack.Decode.TypicalRequest";
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "perfgate-reuse-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_folder))
        {
            Directory.Delete(_folder, recursive: true);
        }
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void A_run_is_reused_until_one_byte_of_the_code_under_test_changes() => WithCopyAndStore(host =>
    {
        var first = Count(host);
        var again = Count(host);
        // Appended bytes leave the assembly loadable and its code as it was: only the key can tell them apart.
        using (var library = File.Open(Path.Combine(host, "SystemUnderTest.dll"), FileMode.Append))
        {
            library.WriteByte(0);
        }

        var changed = Count(host);

        first.Reused.Should().BeNull("nothing was stored yet");
        again.Reused.Should().NotBeNull("the inputs are byte-identical");
        again.InstructionsByRepetition.Should().Equal(first.InstructionsByRepetition, "a reused run is the stored run");
        again.ToString().Should().Contain("reused, not counted again").And.Contain(again.Reused!.Key[..16]);
        changed.Reused.Should().BeNull("one byte of the code under test changed");
        changed.InstructionsPerOperation.Should().BeApproximately(first.InstructionsPerOperation, first.InstructionsPerOperation * 0.01,
            "the appended byte changes no code, so the count is the same within the run-to-run spread");
    });

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void A_served_workload_is_reused_until_one_byte_of_the_code_under_test_changes() => WithCopyAndStore(host =>
    {
        var first = Serve(host, copies: 2);
        var again = Serve(host, copies: 2);
        var more = Serve(host, copies: 3);
        using (var library = File.Open(Path.Combine(host, "SystemUnderTest.dll"), FileMode.Append))
        {
            library.WriteByte(0);
        }

        var changed = Serve(host, copies: 2);

        first.Measurement.Reused.Should().BeNull("nothing was stored yet");
        first.Measurement.ToString().Should().NotContain("not stored for reuse", "the run is stored for the next");
        again.Measurement.Reused.Should().NotBeNull("the inputs are byte-identical");
        again.Measurement.InstructionsByRepetition.Should().Equal(first.Measurement.InstructionsByRepetition, "a reused run is the stored run");
        again.Check.Should().Be(first.Check, "the stored run keeps its check");
        again.Measurement.ToString().Should().Contain("reused, not counted again").And.Contain(again.Measurement.Reused!.Key[..16]);
        more.Measurement.Reused.Should().BeNull("the operations per round are part of the key");
        changed.Measurement.Reused.Should().BeNull("one byte of the code under test changed");
    });

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void A_server_session_is_reused_without_starting_the_server_until_one_byte_of_the_app_changes() => WithCopyAndStore(host =>
    {
        var first = Session(host);
        var again = Session(host);
        using (var library = File.Open(Path.Combine(host, "SystemUnderTest.dll"), FileMode.Append))
        {
            library.WriteByte(0);
        }

        var changed = Session(host);

        first.Started.Should().BeTrue();
        first.Measurement.Reused.Should().BeNull("nothing was stored yet");
        first.Measurement.ToString().Should().NotContain("not stored for reuse", "the session is stored for the next");
        again.Started.Should().BeFalse("a reused session does not start the server");
        again.Measurement.Reused.Should().NotBeNull("the inputs are byte-identical");
        again.Measurement.InstructionsByRepetition.Should().Equal(first.Measurement.InstructionsByRepetition, "a reused session is the stored one");
        again.Measurement.Methods.Should().NotBeEmpty("the stored dumps and perf map name the methods as the counted ones did");
        changed.Started.Should().BeTrue("one byte of the app changed");
        changed.Measurement.Reused.Should().BeNull();
        changed.Measurement.ToString().Should().Contain("counted, not reused: no stored run had these inputs; the nearest").And.Contain("file SystemUnderTest.dll changed");
    });

    // A short counted session of the app in the copy: a start, ten warm-up requests, one round of ten.
    private static (InstructionMeasurement Measurement, bool Started) Session(string host)
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

    // Runs the test on a copy of this suite's output, with a store of its own; skipped (failed under CI) where nothing can be counted.
    private void WithCopyAndStore(Action<string> test)
    {
        if (runs.UnavailableReason is { } reason)
        {
            var options = SuiteGate.Current.Options;
            var message = $"reuse is not tried here ({reason})";
            Assert.False(options.IsCi && !options.CountedBudgetsOff, $"{message}: under CI=true what is not measured fails (PERF_INSTRUCTIONS=off turns the counted budgets off on purpose)");
            throw new BudgetNotMeasuredException(message);
        }

        // The suite's own counted runs read where the store is as they start: they finish first, so that none of them
        // reuses from, or stores into, this test's store.
        Task.WhenAll(runs.InProcess, runs.Server, runs.Startup, runs.FileCopy).ContinueWith(_ => { }, TaskScheduler.Default).GetAwaiter().GetResult();
        var host = Path.Combine(_folder, "host");
        Copy(AppContext.BaseDirectory, host);
        var saved = Environment.GetEnvironmentVariable(HarnessEnvironment.ReuseDirectoryVariable);
        Environment.SetEnvironmentVariable(HarnessEnvironment.ReuseDirectoryVariable, Path.Combine(_folder, "store"));
        try
        {
            test(host);
        }
        finally
        {
            Environment.SetEnvironmentVariable(HarnessEnvironment.ReuseDirectoryVariable, saved);
        }
    }

    private static (InstructionMeasurement Measurement, string Check) Serve(string host, int copies)
    {
        var served = CallgrindWorkloadHost.Measure(Path.Combine(host, "Cpu.Workloads.dll"), ["--serve", "IO.FileCopy"], "IO.FileCopy",
            warmUpOperations: 2, operations: copies, rounds: 1, Timeout);
        served.Check.Should().StartWith("ok");
        return served;
    }

    private static InstructionMeasurement Count(string host)
    {
        var run = InstructionMeter.RunProcess(Path.Combine(host, "Cpu.Workloads.dll"), [Workload], Timeout);
        run.StandardOutput.Should().Contain($"workload {Workload} check ok");
        return run.Measurement(Workload);
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
