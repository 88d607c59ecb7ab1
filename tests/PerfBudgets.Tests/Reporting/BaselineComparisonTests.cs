using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Reporting;

public sealed class BaselineComparisonTests : IDisposable
{
    private readonly TestBudgets _budgets = new("baseline-comparison");
    private readonly string _baselinePath;

    public BaselineComparisonTests()
    {
        // The earlier run: written by a gate exactly as a real run writes results.json.
        var earlier = _budgets.Gate("earlier");
        earlier.Check("Base.Decode.CpuCost", 94);
        earlier.Check("Base.Endpoint.RequestsPerSecond", 5000);
        earlier.Check("Base.Noisy.BytesPerOp", 0);
        _baselinePath = earlier.Store.ResultsPath;
    }

    public void Dispose() => _budgets.Dispose();

    private BudgetGate Gate(bool strict = false, IBudgetWarningSink? warnings = null) =>
        _budgets.Gate("now", options: new BudgetGateOptions
        {
            BaselineFile = _baselinePath,
            BaselineStrict = strict,
            Warnings = warnings ?? StandardErrorWarnings.Instance,
        });

    private sealed class CollectedWarnings : List<string>, IBudgetWarningSink
    {
        public void Warn(string line) => Add(line);
    }

    [Fact]
    public void A_figure_30_percent_worse_than_the_baseline_within_its_limit_is_a_warning_with_its_delta()
    {
        var warnings = new CollectedWarnings();
        var gate = Gate(warnings: warnings);

        var result = gate.Check("Base.Decode.CpuCost", 123);

        result.Verdict.Should().Be(BudgetVerdict.Warn);
        result.Baseline.Should().NotBeNull();
        result.Baseline!.Baseline.Should().Be(94);
        result.Baseline.ChangePercent.Should().BeApproximately(30.85, 0.01);
        warnings.Should().Equal("Base.Decode.CpuCost: 123 cal/op is 31% worse than the baseline 94 (noise threshold 15%)");

        var recorded = ResultStore.ReadAll(gate.Store.ResultsPath).Single();
        recorded.Verdict.Should().Be(BudgetVerdict.Warn);
        recorded.Baseline!.Flagged.Should().BeTrue();
        var summary = System.IO.File.ReadAllText(gate.Store.SummaryPath);
        summary.Should().Contain("| Baseline (change) |");
        summary.Should().Contain("| Base.Decode.CpuCost | 123 | ≤ 150 | cal/op | **warn** (31% worse than baseline, noise 15%) | 94 (+31%) |");
    }

    [Fact]
    public void With_strict_the_same_figure_fails_naming_the_baseline_and_the_threshold()
    {
        var gate = Gate(strict: true);

        var act = () => gate.Check("Base.Decode.CpuCost", 123);

        act.Should().Throw<BudgetExceededException>().Which.Message.Should()
            .Be("Base.Decode.CpuCost: 123 cal/op is 31% worse than the baseline 94 (noise threshold 15%) [strict baseline]");
        ResultStore.ReadAll(gate.Store.ResultsPath).Single().Verdict.Should().Be(BudgetVerdict.Fail);
        System.IO.File.ReadAllText(gate.Store.SummaryPath).Should().Contain("**FAIL** (31% worse than baseline, strict)");
    }

    [Fact]
    public void A_change_within_the_noise_or_for_the_better_passes_and_still_shows_its_delta()
    {
        var gate = Gate(strict: true);

        gate.Check("Base.Decode.CpuCost", 107).Verdict.Should().Be(BudgetVerdict.Pass); // +13.8%, threshold 15%
        gate.Check("Base.Endpoint.RequestsPerSecond", 6000).Verdict.Should().Be(BudgetVerdict.Pass); // up is better for a floor

        var summary = System.IO.File.ReadAllText(gate.Store.SummaryPath);
        summary.Should().Contain("| Base.Decode.CpuCost | 107 | ≤ 150 | cal/op | pass | 94 (+14%) |");
        summary.Should().Contain("| Base.Endpoint.RequestsPerSecond | 6,000 | ≥ 1,000 | req/s | pass | 5,000 (+20%) |");
    }

    [Fact]
    public void For_a_floor_down_is_worse()
    {
        var result = Gate().Check("Base.Endpoint.RequestsPerSecond", 3500);

        result.Verdict.Should().Be(BudgetVerdict.Warn);
        result.Baseline!.WorsePercent.Should().BeApproximately(30, 1e-9);
        result.Baseline.ChangePercent.Should().BeApproximately(-30, 1e-9);
    }

    [Fact]
    public void A_budget_the_baseline_lacks_gets_a_dash_and_no_warning()
    {
        var gate = Gate(strict: true);

        gate.Check("Base.New.BytesPerOp", 50).Verdict.Should().Be(BudgetVerdict.Pass);

        System.IO.File.ReadAllText(gate.Store.SummaryPath).Should().Contain("| Base.New.BytesPerOp | 50 | ≤ 100 | B/op | pass | — |");
    }

    [Fact]
    public void An_absolute_noise_floor_keeps_a_change_from_zero_quiet_until_it_is_passed()
    {
        var gate = Gate();

        gate.Check("Base.Noisy.BytesPerOp", 0.08).Verdict.Should().Be(BudgetVerdict.Pass);
        gate.Check("Base.Noisy.BytesPerOp", 0.3).Verdict.Should().Be(BudgetVerdict.Warn);
    }

    [Fact]
    public void A_failure_against_the_limit_stays_a_limit_failure_with_the_delta_recorded()
    {
        var gate = Gate();

        gate.Invoking(g => g.Check("Base.Decode.CpuCost", 200)).Should().Throw<BudgetExceededException>()
            .WithMessage("Base.Decode.CpuCost: 200 cal/op > budget 150 (+33%)");
        var recorded = ResultStore.ReadAll(gate.Store.ResultsPath).Single();
        recorded.Verdict.Should().Be(BudgetVerdict.Fail);
        recorded.Baseline!.Baseline.Should().Be(94);
    }

    [Fact]
    public void Without_a_baseline_the_summary_has_no_baseline_column()
    {
        var gate = _budgets.Gate("plain");

        gate.Check("Base.Decode.CpuCost", 123).Verdict.Should().Be(BudgetVerdict.Pass);

        System.IO.File.ReadAllText(gate.Store.SummaryPath).Should().NotContain("Baseline");
        System.IO.File.ReadAllText(gate.Store.ResultsPath).Should().NotContain("\"baseline\"");
    }

    [Fact]
    public void A_missing_baseline_file_is_an_error_naming_it()
    {
        var missing = Path.Combine(_budgets.Folder, "nowhere", "results.json");

        var act = () => BaselineResults.Load(missing);

        act.Should().Throw<BaselineFileException>().WithMessage($"PERF_BASELINE: baseline '{missing}' does not exist*");
    }

    [Theory]
    [InlineData("not json")]
    [InlineData("""{ "something": [] }""")]
    [InlineData("""{ "results": [] }""")]
    public void An_unreadable_or_empty_baseline_file_is_an_error(string text)
    {
        var path = Path.Combine(_budgets.Folder, "bad-results.json");
        System.IO.File.WriteAllText(path, text);

        var act = () => BaselineResults.Load(path);

        act.Should().Throw<BaselineFileException>().WithMessage($"PERF_BASELINE: baseline '{path}'*");
    }
}
