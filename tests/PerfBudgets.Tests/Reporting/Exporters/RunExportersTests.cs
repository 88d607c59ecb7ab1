using System.Text;
using System.Text.Json;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Exporters;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Reporting.Exporters;

// The store persists, the exporters render: summary.md after every write, the step summary once per process.
public sealed class RunExportersTests : IDisposable
{
    private static readonly MachineInfo Machine = new(4, "Linux", "X64", ".NET 10.0.0", "workstation", true);
    private static readonly RunIdentity Run = new("run-1", "0123abc");
    private static readonly DateTimeOffset At = new(2026, 11, 20, 10, 0, 0, TimeSpan.Zero);

    private static readonly BudgetResult Bytes = new("A.Bytes", "allocated-bytes-per-op", 40, 64, "B/op", BudgetVerdict.Pass, "ci", At, Machine, null);
    private static readonly BudgetResult Rate = new("B.Rate", "requests-per-second-min", 900, 1000, "req/s", BudgetVerdict.Fail, "ci", At.AddSeconds(1), Machine, null);
    private static readonly BudgetResult Info = new("C.Info", BudgetResult.InfoKind, 3.5, null, "ms", BudgetVerdict.Info, "ci", At.AddSeconds(2), Machine, null);

    private readonly TemporaryDirectory _folder = new();

    public void Dispose() => _folder.Dispose();

    // The bytes summary.md has always had for these results: the failure first, then by name; UTF-8 without a BOM.
    private static string Table(params string[] rows) => string.Concat(
        new[]
        {
            "| Budget | Measured | Limit | Unit | Verdict | Profile | Cores | Measured at (UTC) |",
            "|---|---:|---:|---|---|---|---:|---|",
        }.Concat(rows).Select(line => line + Environment.NewLine));

    private const string RateRow = "| B.Rate | 900 | ≥ 1,000 | req/s | **FAIL** (-10%) | ci | 4 | 2026-11-20 10:00:01 |";
    private const string BytesRow = "| A.Bytes | 40 | ≤ 64 | B/op | pass | ci | 4 | 2026-11-20 10:00:00 |";
    private const string InfoRow = "| C.Info | 3.5 | — | ms | info | ci | 4 | 2026-11-20 10:00:02 |";

    [Fact]
    public void Summary_md_is_rewritten_after_every_result_from_everything_results_json_holds()
    {
        var store = new ResultStore(_folder.Path);
        var exporters = RunExporters.Of(store);

        exporters.Record(Bytes, Run, stepSummaryFile: null);
        File.ReadAllBytes(store.SummaryPath).Should().Equal(Encoding.UTF8.GetBytes(Table(BytesRow)));

        // Another test process of the same run writes into the same folder: the table holds both processes' results.
        RunExporters.Of(new ResultStore(_folder.Path)).Record(Rate, Run, stepSummaryFile: null);
        exporters.Record(Info, Run, stepSummaryFile: null);

        File.ReadAllBytes(store.SummaryPath).Should().Equal(Encoding.UTF8.GetBytes(Table(RateRow, BytesRow, InfoRow)));
        File.ReadAllText(store.SummaryPath).Should().Be(SummaryExporter.Instance.Render(new RunResults(ResultStore.ReadAll(store.ResultsPath))));
        RunExporters.Of(store).Should().BeSameAs(exporters, "one set of exporters per store, however many gates share it");
    }

    [Fact]
    public void After_a_filtered_run_the_rows_it_did_not_measure_say_which_run_recorded_them()
    {
        var store = new ResultStore(_folder.Path);
        RunExporters.Of(store).Record(Rate, Run, stepSummaryFile: null);

        // A later run filtered to one test: it measures A.Bytes only, and B.Rate's failure is still the first run's.
        RunExporters.Of(store).Record(Bytes, new RunIdentity("run-2", null), stepSummaryFile: null);

        File.ReadAllText(store.SummaryPath).Should().Be(Table(
            "| B.Rate | 900 | ≥ 1,000 | req/s | **FAIL** (-10%) (recorded by run run-1, not this one) | ci | 4 | 2026-11-20 10:00:01 |",
            BytesRow));
        ResultStore.ReadAll(store.ResultsPath).Select(r => r.RunId).Should().Equal("run-2", "run-1");
    }

    [Fact]
    public void The_store_alone_persists_results_and_history_and_renders_nothing()
    {
        var store = new ResultStore(_folder.Path);

        store.Record(Bytes, Run);

        ResultStore.ReadAll(store.ResultsPath).Should().Equal(Bytes with { RunId = "run-1" });
        ResultStore.ReadHistory(store.HistoryPath, out _).Should().ContainSingle().Which.RunId.Should().Be("run-1");
        File.Exists(store.SummaryPath).Should().BeFalse("summary.md is the exporters' output, not the store's");
    }

    [Fact]
    public void A_recorded_load_run_rewrites_summary_md_too()
    {
        var store = new ResultStore(_folder.Path);
        var load = LoadResultJson.Read(JsonDocument.Parse("""{ "scenario": "S", "model": "closed" }""").RootElement);

        RunExporters.Of(store).RecordLoad(load);

        File.ReadAllText(store.SummaryPath).Should().Be(Table());
        ResultStore.ReadLoads(store.ResultsPath, out _).Should().ContainSingle().Which.Scenario.Should().Be("S");
    }

    [Fact]
    public void The_step_summary_gets_this_process_results_appended_once_after_what_other_steps_wrote()
    {
        var stepSummary = Path.Combine(_folder.Path, "step-summary.md");
        Directory.CreateDirectory(_folder.Path);
        File.WriteAllText(stepSummary, "## Tests" + Environment.NewLine);
        var mine = RunExporters.Of(new ResultStore(Path.Combine(_folder.Path, "mine")));
        mine.Record(Bytes, Run, stepSummary);
        mine.Record(Rate, Run, stepSummaryFile: null);
        // Another process's result in the same results folder is in its own step summary, not this one's.
        RunExporters.Of(new ResultStore(Path.Combine(_folder.Path, "mine"))).Record(Info, Run, stepSummaryFile: null);

        mine.ExportStepSummary();
        mine.ExportStepSummary();

        File.ReadAllText(stepSummary).Should().Be("## Tests" + Environment.NewLine + Table(RateRow, BytesRow) + Environment.NewLine);
    }
}
