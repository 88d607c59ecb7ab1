using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests;

// The counted kinds (instructions-max, syscalls-max): their budget fields, the gate's checks, what a failure names, the
// unmeasured case, and the recorder that rewrites budgets.json.
public sealed class CountedBudgetTests : IDisposable
{
    // The file's recordings name this runtime (RUNTIME in the file), so only a change of Valgrind is a change of versions.
    private readonly TestBudgets _budgets = new("counted", edit: text => text.Replace("RUNTIME", InstructionMeter.RuntimeVersion, StringComparison.Ordinal));

    public void Dispose() => _budgets.Dispose();

    private BudgetGate Gate(bool ci = false) => new(_budgets.Book, _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false, IsCi = ci });

    private static InstructionMeasurement Measured(long instructionsPerRepetition, long syscallsPerRepetition, string valgrind = "3.19.0",
        params (string Method, double PerOperation)[] methods) =>
        new("Demo", 100, [instructionsPerRepetition + 500, instructionsPerRepetition], [syscallsPerRepetition, syscallsPerRepetition + 3], [],
            methods.Select(m => new MethodInstructions(m.Method, m.PerOperation)).ToList(), [new MethodInstructions("send", syscallsPerRepetition / 100.0)],
            InstructionMeter.RuntimeVersion, valgrind);

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
    public void Counts_from_another_Valgrind_version_fail_and_ask_for_a_re_recording()
    {
        var act = () => Gate().CheckCount("Demo.Instructions", Measured(100_000, 200, "3.22.0"));

        act.Should().Throw<BudgetExceededException>().WithMessage(
            $"Demo.Instructions: recorded on .NET {InstructionMeter.RuntimeVersion} with valgrind 3.19.0, this is .NET {InstructionMeter.RuntimeVersion} with valgrind 3.22.0: counts do not compare across versions, re-record*");
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
    public void A_counted_budget_without_its_recording_is_refused()
    {
        var act = () => BudgetBook.Parse("""{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "instructions-max", "limit": 5, "unit": "instructions/op" } ] }""", "budgets.json", "ci");

        act.Should().Throw<BudgetFileException>().WithMessage("*needs 'recorded'*Record.Instructions*");
    }

    [Fact]
    public void The_recorder_rewrites_the_counts_and_keeps_everything_else()
    {
        var original = _budgets.Text.Replace("\"profiles\": [\"ci\"],", "\"profiles\": [\"ci\"],\n  \"note\": \"kept × as it is\",", StringComparison.Ordinal);
        var budgetsPath = _budgets.WriteBudgetFile(original);
        var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false });
        gate.Invoking(g => g.CheckCount("Demo.Instructions", Measured(110_000, 200, "3.19.0", ("Demo::Hot", 1100)))).Should().Throw<BudgetExceededException>();

        var lines = CountedBudgetRecorder.Record(budgetsPath, [Path.Combine(_budgets.Folder, "results.json")], "10.0.99", "3.19.0");

        lines.Should().Equal(
            "Demo.Instructions: recorded 1,000 → 1,100 (+10.00%), limit 1,010 → 1,111",
            "Demo.Syscalls: not in results.json, left as it was");
        var book = BudgetBook.Load(budgetsPath, "ci");
        book.Get("Demo.Instructions").Should().Match<Budget>(b => b.Recorded == 1100 && b.Limit == 1111 && b.Margin == 0.01 && b.RecordedOn!.Runtime == "10.0.99");
        book.Get("Demo.Syscalls").Limit.Should().Be(2);
        System.IO.File.ReadAllText(budgetsPath).Should().Contain("\"note\": \"kept × as it is\"");
        RecordedMethodsFile.Read(Path.Combine(_budgets.Folder, RecordedMethodsFile.FileName))["Demo.Instructions"]
            .Should().ContainSingle().Which.Should().Match<AttributionEntry>(e => e.Name == "Demo::Hot" && e.Value == 1100);
    }
}
