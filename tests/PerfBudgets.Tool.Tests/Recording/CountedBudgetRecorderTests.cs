using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;
using PerfBudgets.Tool.Recording;
using static PerfBudgets.Tests.Support.CountedMeasurements;

namespace PerfBudgets.Tool.Tests.Recording;

// perfbudgets record: the recorder rewrites the counted budgets of budgets.json from the results the gate wrote, and
// keeps everything else of the file.
public sealed class CountedBudgetRecorderTests : IDisposable
{
    // The files' recordings name this runtime (RUNTIME in the file), so only a change of Valgrind is a change of versions.
    private readonly TestBudgets _budgets = new("counted", edit: text => text.Replace("RUNTIME", InstructionMeter.RuntimeVersion, StringComparison.Ordinal));
    private readonly TestBudgets _growth = new("growth", edit: text => text.Replace("RUNTIME", InstructionMeter.RuntimeVersion, StringComparison.Ordinal));

    public void Dispose()
    {
        _budgets.Dispose();
        _growth.Dispose();
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

    [Fact]
    public void An_allocation_budgets_profile_from_a_diagnosed_run_is_recorded_with_its_own_code_and_samples()
    {
        using var budgets = new TestBudgets("attribution-change");
        var budgetsPath = budgets.WriteBudgetFile();
        var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false, DiagnoseAlways = true });
        gate.Check("Json.Endpoint.Employees9.ServerBytesPerRequest", 6_000, diagnose: () =>
            new Attribution("top types", [new("System.String", 4_000, "B/op", 1, 800)], "AllocationSampled events") { OwnCode = [new("App.Render", 4_000, "B/op", 1, 790)] });

        var lines = CountedBudgetRecorder.Record(budgetsPath, [Path.Combine(budgets.Folder, "results.json")], "10.0.99", "3.19.0");

        lines.Should().Equal("Json.Endpoint.Employees9.ServerBytesPerRequest: allocation profile recorded, 1 types and 1 of the program's methods");
        var path = Path.Combine(budgets.Folder, RecordedMethodsFile.FileName);
        RecordedMethodsFile.Read(path)["Json.Endpoint.Employees9.ServerBytesPerRequest"].Should().Equal(new AttributionEntry("System.String", 4_000, "B/op", null, 800));
        RecordedMethodsFile.ReadOwnCode(path)["Json.Endpoint.Employees9.ServerBytesPerRequest"].Should().Equal(new AttributionEntry("App.Render", 4_000, "B/op", null, 790));
    }

    [Fact]
    public void Recorded_for_a_framework_the_counts_go_to_its_runtimes_entry_and_the_budgets_own_stay()
    {
        var budgetsPath = _budgets.WriteBudgetFile();
        var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false });
        gate.Invoking(g => g.CheckCount("Demo.Instructions", Measured(110_000, 200, "3.19.0", ("Demo::Hot", 1100)))).Should().Throw<BudgetExceededException>();

        var lines = CountedBudgetRecorder.Record(budgetsPath, [Path.Combine(_budgets.Folder, "results.json")], "8.0.34", "3.19.0", targetFramework: "net8.0");

        lines.Should().StartWith(["Demo.Instructions (net8.0): recorded 1,100 (new), limit 1,111"]);
        BudgetBook.Load(budgetsPath, "ci", "net8.0").Get("Demo.Instructions")
            .Should().Match<Budget>(b => b.Recorded == 1100 && b.Limit == 1111 && b.RecordedOn!.Runtime == "8.0.34" && b.TargetFramework == "net8.0");
        BudgetBook.Load(budgetsPath, "ci", "net10.0").Get("Demo.Instructions")
            .Should().Match<Budget>(b => b.Recorded == 1000 && b.Limit == 1010 && b.TargetFramework == null);
        var breakdowns = RecordedMethodsFile.Read(Path.Combine(_budgets.Folder, RecordedMethodsFile.FileName));
        breakdowns.Should().NotContainKey("Demo.Instructions", "a runtime's entry leaves the budget's own breakdown alone");
        breakdowns["Demo.Instructions (net8.0)"].Should().ContainSingle().Which.Name.Should().Be("Demo::Hot");
    }

    [Fact]
    public void A_re_recording_names_the_methods_that_moved_most()
    {
        var budgetsPath = _budgets.WriteBudgetFile();
        RecordedMethodsFile.Write(Path.Combine(_budgets.Folder, RecordedMethodsFile.FileName), new Dictionary<string, IReadOnlyList<AttributionEntry>>
        {
            ["Demo.Instructions"] = [new("Demo::Hot", 600, "instructions/op", null), new("Demo::Cold", 400, "instructions/op", null), new("Demo::Gone", 5, "instructions/op", null)],
        });
        var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false });
        gate.Invoking(g => g.CheckCount("Demo.Instructions", Measured(104_000, 200, "3.19.0", ("Demo::Hot", 640), ("Demo::Cold", 399.5), ("Demo::New", 0.5))))
            .Should().Throw<BudgetExceededException>();

        var lines = CountedBudgetRecorder.Record(budgetsPath, [Path.Combine(_budgets.Folder, "results.json")], "10.0.14", "3.19.0");

        lines.Should().StartWith([
            "Demo.Instructions: recorded 1,000 → 1,040 (+4.00%), limit 1,010 → 1,050",
            "  moved most: Demo::Hot +40 (600 → 640), Demo::Gone -5 (5 → 0)",
        ]);
    }

    [Fact]
    public void The_recorder_re_records_a_growth_budget_at_the_median_exponent_plus_its_margin()
    {
        var budgetsPath = _growth.WriteBudgetFile();
        var runs = new[] { 1.013, 1.011, 1.012 }.Select((exponent, i) =>
        {
            var store = _growth.Store($"run{i}");
            store.Record(new BudgetResult("Demo.Growth", "growth-exponent-max", exponent, 1.02, "exponent", BudgetVerdict.Pass, "ci", DateTimeOffset.UtcNow, MachineInfo.Current, null), RunIdentity.Of(runId: null, commit: null));
            return Path.Combine(_growth.Folder, $"run{i}", "results.json");
        }).ToList();

        var lines = CountedBudgetRecorder.Record(budgetsPath, runs, InstructionMeter.RuntimeVersion, "3.19.0");

        lines.Should().Contain(l => l.StartsWith("Demo.Growth: recorded 0.84 → 1.012 (+20.48%), limit 0.86 → 1.032", StringComparison.Ordinal));
        var book = BudgetBook.Load(budgetsPath, "ci");
        (book.Get("Demo.Growth").Recorded, book.Get("Demo.Growth").Limit).Should().Be((1.012, 1.032));
    }
}
