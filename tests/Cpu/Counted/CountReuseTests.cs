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
