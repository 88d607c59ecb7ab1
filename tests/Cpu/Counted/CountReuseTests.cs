using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace Cpu.Counted;

// A counted run is reused while its inputs are byte-identical, and counted again as soon as one byte of the code under
// test changes: the package's store, seen from outside as an adopter sees it (PERF_REUSE_DIR, the measurement's
// Reused), on a copy of this suite's host folder so the suite's own runs are untouched. The three kinds of run are
// counted once for the class (ReuseRuns), side by side.
public sealed class CountReuseTests(CountedRuns runs)
{
    private static readonly Lock Gate = new();
    private static Task<ReuseRuns>? _counted;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void A_run_is_reused_until_one_byte_of_the_code_under_test_changes()
    {
        var (first, again, changed) = Counted().InProcess;

        first.Reused.Should().BeNull("nothing was stored yet");
        again.Reused.Should().NotBeNull("the inputs are byte-identical");
        again.InstructionsByRepetition.Should().Equal(first.InstructionsByRepetition, "a reused run is the stored run");
        again.ToString().Should().Contain("reused, not counted again").And.Contain(again.Reused!.Key[..16]);
        changed.Reused.Should().BeNull("one byte of the code under test changed");
        changed.InstructionsPerOperation.Should().BeApproximately(first.InstructionsPerOperation, first.InstructionsPerOperation * 0.01,
            "the appended byte changes no code, so the count is the same within the run-to-run spread");
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void A_served_workload_is_reused_until_one_byte_of_the_code_under_test_changes()
    {
        var (first, again, more, changed) = Counted().Served;

        first.Measurement.Reused.Should().BeNull("nothing was stored yet");
        first.Measurement.ToString().Should().NotContain("not stored for reuse", "the run is stored for the next");
        again.Measurement.Reused.Should().NotBeNull("the inputs are byte-identical");
        again.Measurement.InstructionsByRepetition.Should().Equal(first.Measurement.InstructionsByRepetition, "a reused run is the stored run");
        again.Check.Should().Be(first.Check, "the stored run keeps its check");
        again.Measurement.ToString().Should().Contain("reused, not counted again").And.Contain(again.Measurement.Reused!.Key[..16]);
        more.Measurement.Reused.Should().BeNull("the operations per round are part of the key");
        changed.Measurement.Reused.Should().BeNull("one byte of the code under test changed");
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void A_server_session_is_reused_without_starting_the_server_until_one_byte_of_the_app_changes()
    {
        var (first, again, changed) = Counted().Session;

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
    }

    // The class's counts, started by its first test; skipped (failed under CI) where nothing can be counted.
    private ReuseRuns Counted()
    {
        if (runs.UnavailableReason is { } reason)
        {
            var options = SuiteGate.Current.Options;
            var message = $"reuse is not tried here ({reason})";
            Assert.False(options.IsCi && !options.CountedBudgetsOff, $"{message}: under CI=true what is not measured fails (PERF_INSTRUCTIONS=off turns the counted budgets off on purpose)");
            throw new BudgetNotMeasuredException(message);
        }

        lock (Gate)
        {
            _counted ??= Task.Run(() => ReuseRuns.Count(runs));
        }

        return _counted.GetAwaiter().GetResult();
    }
}
