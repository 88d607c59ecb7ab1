using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Reporting;
using PerfBudgets.Tests.Support;
using static PerfBudgets.Tests.Support.CountedMeasurements;
using PerfBudgets;

namespace PerfBudgets.Tests;

// The counted kinds (instructions-max, syscalls-max): their budget fields, the gate's checks, what a failure names and the
// unmeasured case. The recorder that rewrites budgets.json is the tool's (PerfBudgets.Tool.Tests/Recording).
public sealed class CountedBudgetTests : IDisposable
{
    // The file's recordings name this runtime (RUNTIME in the file), so only a change of Valgrind is a change of versions.
    private readonly TestBudgets _budgets = new("counted", edit: text => text.Replace("RUNTIME", InstructionMeter.RuntimeVersion, StringComparison.Ordinal));

    public void Dispose() => _budgets.Dispose();

    private readonly CollectedWarnings _warnings = [];

    private BudgetGate Gate(bool ci = false, bool recordingStrict = false) =>
        new(_budgets.Book, _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false, IsCi = ci, RecordingStrict = recordingStrict, Warnings = _warnings });

    private sealed class CollectedWarnings : List<string>, IBudgetWarningSink
    {
        public void Warn(string message) => Add(message);
    }

    [Fact]
    public void A_counted_budget_gates_the_repetition_with_the_fewest()
    {
        var result = Gate().CheckCount("Demo.Instructions", Measured(100_900, 200));

        result.Measured.Should().Be(1009);
        result.Verdict.Should().Be(BudgetVerdict.Pass);
        result.Attribution!.Entries.Should().BeEmpty("the measurement named no method");
    }

    [Fact]
    public void One_more_system_call_per_operation_fails_a_zero_margin_budget()
    {
        Gate().CheckCount("Demo.Syscalls", Measured(100_000, 200)).Verdict.Should().Be(BudgetVerdict.Pass);

        Gate().Invoking(g => g.CheckCount("Demo.Syscalls", Measured(100_000, 300)))
            .Should().Throw<BudgetExceededException>().WithMessage("Demo.Syscalls: 3 syscalls/op > budget 2 (+50%)*");
    }

    [Fact]
    public void A_failure_names_the_methods_that_grew_since_the_recording()
    {
        // The recording is read from beside the budget file, so the file is written into the folder with it.
        var budgetsPath = _budgets.WriteBudgetFile();
        RecordedMethodsFile.Write(Path.Combine(_budgets.Folder, RecordedMethodsFile.FileName), new Dictionary<string, IReadOnlyList<AttributionEntry>>
        {
            ["Demo.Instructions"] = [new("Demo::Hot", 600, "instructions/op", null), new("Demo::Cold", 400, "instructions/op", null)],
        });
        var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false });

        var act = () => gate.CheckCount("Demo.Instructions", Measured(102_000, 200, "3.19.0", ("Demo::Hot", 620), ("Demo::Cold", 400)));

        act.Should().Throw<BudgetExceededException>().Which.Message.Should()
            .StartWith("Demo.Instructions: 1,020 instructions/op > budget 1,010 (+1%)")
            .And.Contain("grew since the recording (budgets.methods.json): Demo::Hot +20 instructions/op (600 → 620)")
            .And.NotContain("Demo::Cold +");
    }

    [Fact]
    public void Counts_from_another_runtime_are_not_compared_with_a_recording_made_on_the_budgets_runtime()
    {
        var budgetsPath = _budgets.WriteBudgetFile();
        RecordedMethodsFile.Write(Path.Combine(_budgets.Folder, RecordedMethodsFile.FileName), new Dictionary<string, IReadOnlyList<AttributionEntry>>
        {
            ["Demo.Instructions"] = [new("Demo::Hot", 600, "instructions/op", null), new("Demo::Cold", 400, "instructions/op", null)],
        });
        var store = _budgets.Store();
        var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), store, new BudgetGateOptions { RequireOptimizedBuild = false });

        var act = () => gate.CheckCount("Demo.Instructions", Measured(102_000, 200, "3.19.0", "10.0.99", ("Demo::Hot", 620), ("Demo::Cold", 400)));

        act.Should().Throw<BudgetExceededException>().Which.Message.Should().StartWith("Demo.Instructions: recorded on .NET");
        var recorded = File.ReadAllText(store.ResultsPath);
        recorded.Should().Contain("Demo::Hot").And.NotContain("grew since the recording", "a recording on another runtime says nothing of what grew");
    }

    [Fact]
    public void A_cycles_failure_names_the_methods_whose_estimated_cycles_grew_where_their_instructions_did_not()
    {
        // A cache regression: Demo::Hot runs the same instructions and misses more, so only its cycles grew.
        using var budgets = new TestBudgets("counted-cycles", edit: text => text.Replace("RUNTIME", InstructionMeter.RuntimeVersion, StringComparison.Ordinal));
        var budgetsPath = budgets.WriteBudgetFile();
        RecordedMethodsFile.Write(Path.Combine(budgets.Folder, RecordedMethodsFile.FileName), new Dictionary<string, IReadOnlyList<AttributionEntry>>
        {
            ["Demo.Cycles"] = [new("Demo::Hot", 3000, "cycles/op", null), new("Demo::Cold", 2000, "cycles/op", null)],
        });
        var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false });
        var measured = Measured(100_000, 200, "3.19.0", ("Demo::Hot", 600), ("Demo::Cold", 400)) with
        {
            EstimatedCyclesByRepetition = [540_000, 520_000],
            CycleMethods = [new MethodInstructions("Demo::Hot", 3200), new MethodInstructions("Demo::Cold", 2000)],
        };

        var act = () => gate.CheckCount("Demo.Cycles", measured);

        act.Should().Throw<BudgetExceededException>().Which.Message.Should()
            .StartWith("Demo.Cycles: 5,200 cycles/op > budget 5,050 (+3%)")
            .And.Contain("grew since the recording (budgets.methods.json): Demo::Hot +200 cycles/op (3,000 → 3,200)")
            .And.NotContain("Demo::Cold +").And.NotContain("instructions/op (");
        ResultStore.ReadAll(budgets.Store().ResultsPath).Single().Attribution!.Entries.Should().OnlyContain(e => e.Unit == "cycles/op");
    }

    [Fact]
    public void Counts_on_another_runtime_fail_and_name_the_record_command()
    {
        var act = () => Gate().CheckCount("Demo.Instructions", Measured(100_000, 200, "3.19.0", "10.0.99"));

        act.Should().Throw<BudgetExceededException>().WithMessage(
            $"Demo.Instructions: recorded on .NET {InstructionMeter.RuntimeVersion}, counted on .NET 10.0.99: counts do not compare across runtime versions; this run counted on the machine's runtime, not a pinned one*so pin it and re-record (perfbudgets record)*");
    }

    [Fact]
    public void Counts_from_another_Valgrind_version_are_gated_and_say_the_versions_differ()
    {
        Gate().CheckCount("Demo.Instructions", Measured(100_000, 200, "3.22.0")).Verdict.Should().Be(BudgetVerdict.Pass);
        _warnings.Should().ContainSingle().Which.Should().Be(
            "Demo.Instructions: recorded with valgrind 3.19.0, counted with valgrind 3.22.0, not shown to count alike; if the code did not change, re-record (perfbudgets record)");

        var act = () => Gate().CheckCount("Demo.Instructions", Measured(105_000, 200, "3.22.0"));

        act.Should().Throw<BudgetExceededException>().WithMessage("Demo.Instructions: 1,050 instructions/op > budget 1,010 (+4%) [recorded with valgrind 3.19.0, counted with valgrind 3.22.0, not shown to count alike*");
    }

    [Fact]
    public async Task A_count_over_its_limit_is_confirmed_in_a_second_count_and_the_smaller_gated()
    {
        var confirmations = 0;

        var result = await Gate().CheckCountConfirmedAsync("Demo.Instructions", Measured(103_000, 200), () =>
        {
            confirmations++;
            return Task.FromResult(Measured(100_200, 200));
        });

        confirmations.Should().Be(1);
        result.Verdict.Should().Be(BudgetVerdict.Pass);
        result.Measured.Should().Be(1002);
        result.Detail.Should().Contain("counted twice, each in a process of its own: 1,030 then 1,002 instructions/op, the smaller gated");
    }

    [Fact]
    public async Task A_regression_fails_both_counts_and_the_failure_gives_both()
    {
        var act = () => Gate().CheckCountConfirmedAsync("Demo.Instructions", Measured(103_000, 200), () => Task.FromResult(Measured(103_100, 200)));

        await act.Should().ThrowAsync<BudgetExceededException>().WithMessage("Demo.Instructions: 1,030 instructions/op > budget 1,010 (+2%)*counted twice, each in a process of its own: 1,030 then 1,031 instructions/op, the smaller gated*");
    }

    [Fact]
    public async Task A_count_within_its_limit_is_not_counted_again()
    {
        var act = () => Gate().CheckCountConfirmedAsync("Demo.Instructions", Measured(100_000, 200), () => throw new InvalidOperationException("not to be called"));

        await act.Should().NotThrowAsync();
    }

    [Fact]
    public void A_counted_budgets_warning_is_written_after_its_result_is_recorded()
    {
        var store = _budgets.Store();
        var recordedWhenWarned = new List<bool>();
        var sink = new RecordingProbe(() => recordedWhenWarned.Add(File.Exists(store.ResultsPath) && File.ReadAllText(store.ResultsPath).Contains("Demo.Instructions", StringComparison.Ordinal)));
        var gate = new BudgetGate(_budgets.Book, store, new BudgetGateOptions { RequireOptimizedBuild = false, Warnings = sink });

        gate.CheckCount("Demo.Instructions", Measured(25_000, 200, "3.22.0"));

        recordedWhenWarned.Should().Equal([true, true], "the other Valgrind's and the stale recording's warnings both come after the result is in results.json");
    }

    private sealed class RecordingProbe(Action onWarn) : IBudgetWarningSink
    {
        public void Warn(string message) => onWarn();
    }

    [Fact]
    public void A_count_far_below_its_recording_warns_that_the_recording_is_stale()
    {
        // Recorded at 1,000 with a 1% margin: 250 is a quarter of it, so the limit protects nothing below 1,010.
        Gate().CheckCount("Demo.Instructions", Measured(25_000, 200)).Verdict.Should().Be(BudgetVerdict.Pass);

        _warnings.Should().ContainSingle().Which.Should().Be(
            "Demo.Instructions: counted 250 instructions/op, (-75%) against its recording of 1,000 (margin 1%): the recording is stale and the limit 1,010 protects nothing below it; re-record (perfbudgets record)");
        Gate().CheckCount("Demo.Instructions", Measured(99_500, 200));
        _warnings.Should().HaveCount(1, "a count within the margin below the recording is the recording's own spread");
    }

    [Fact]
    public void With_a_strict_recording_a_count_far_below_its_recording_fails_by_name()
    {
        var act = () => Gate(recordingStrict: true).CheckCount("Demo.Instructions", Measured(25_000, 200));

        var failure = act.Should().Throw<BudgetExceededException>().Which.Failures.Should().ContainSingle().Subject;
        (failure.BudgetName, failure.Cause).Should().Be(("Demo.Instructions", FailureCause.StaleRecording));
        failure.Message.Should().Be(
            "Demo.Instructions: counted 250 instructions/op, (-75%) against its recording of 1,000 (margin 1%): the recording is stale and the limit 1,010 protects nothing below it; re-record (perfbudgets record) [strict recording]");
        _warnings.Should().BeEmpty("strict turns the warning into the failure");
        ResultStore.ReadAll(Path.Combine(_budgets.Folder, "results.json")).Single().Verdict.Should().Be(BudgetVerdict.Fail);

        Gate(recordingStrict: true).CheckCount("Demo.Instructions", Measured(99_500, 200)).Verdict.Should().Be(BudgetVerdict.Pass, "within the margin below the recording is the recording's own spread");
    }

    [Fact]
    public void An_unmeasured_budget_is_never_a_pass()
    {
        Gate().Invoking(g => g.NotMeasured("Demo.Instructions", "valgrind not found: apt-get install valgrind"))
            .Should().Throw<BudgetNotMeasuredException>().WithMessage("Demo.Instructions: not measured (valgrind not found: apt-get install valgrind)");
        ResultStore.ReadAll(Path.Combine(_budgets.Folder, "results.json")).Single().Verdict.Should().Be(BudgetVerdict.NotMeasured);
        Gate(ci: true).Invoking(g => g.NotMeasured("Demo.Instructions", "valgrind not found: apt-get install valgrind"))
            .Should().Throw<BudgetExceededException>().WithMessage("*under CI=true an unmeasured budget fails*PERF_INSTRUCTIONS=off*");

        ResultStore.ReadAll(Path.Combine(_budgets.Folder, "results.json")).Single().Verdict.Should().Be(BudgetVerdict.Fail);
    }

    [Fact]
    public void A_limit_that_is_not_recorded_plus_margin_is_refused()
    {
        var act = () => BudgetBook.Parse(_budgets.Text.Replace("\"limit\": 1010", "\"limit\": 1500", StringComparison.Ordinal), "budgets.json", "ci");

        act.Should().Throw<BudgetFileException>().WithMessage("*limit 1500 is not recorded 1000 + margin 1.0 % = 1010*not the limit*");
    }

    [Fact]
    public void A_count_recorded_at_0_gets_room_from_its_absolute_margin()
    {
        // No fraction of 0 lets a stray system call through: the absolute margin does, and one more call per operation
        // still fails.
        var text = _budgets.Text.Replace("\"limit\": 2, \"unit\": \"syscalls/op\",\n      \"recorded\": 2, \"margin\": 0,", "\"limit\": 0.5, \"unit\": \"syscalls/op\",\n      \"recorded\": 0, \"margin\": 0, \"marginAbsolute\": 0.5,", StringComparison.Ordinal);
        var budget = BudgetBook.Parse(text, "budgets.json", "ci").Get("Demo.Syscalls");

        budget.Should().Match<Budget>(b => b.Limit == 0.5 && b.MarginAbsolute == 0.5);
        budget.IsMet(0.25).Should().BeTrue("one stray call in a repetition of 4 operations");
        budget.IsMet(1).Should().BeFalse("one more call per operation");
        var handSet = () => BudgetBook.Parse(text.Replace("\"limit\": 0.5", "\"limit\": 1", StringComparison.Ordinal), "budgets.json", "ci");
        handSet.Should().Throw<BudgetFileException>().WithMessage("*limit 1 is not recorded 0 + margin 0.0 % + marginAbsolute 0.5 = 0.5*");
    }

    [Fact]
    public void A_counted_budget_without_its_recording_is_refused()
    {
        var act = () => BudgetBook.Parse("""{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "instructions-max", "limit": 5, "unit": "instructions/op" } ] }""", "budgets.json", "ci");

        act.Should().Throw<BudgetFileException>().WithMessage("*needs 'recorded'*perfbudgets record*");
    }
}
