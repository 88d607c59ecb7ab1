using PerfBudgets.Reporting;
using PerfGate.Build.Docs;
using PerfBudgets.Reporting.Storage;

namespace PerfGate.Build.Tests.Docs;

// The documentation's tables are generated from a run's results.json and history.jsonl. The results and history here
// are data (TestVectors/doc-tables-*): five results on one 2-core machine, and a history of runs of which one ran
// against an earlier limit, one failed, one ran under another profile, one budget is only in the history, one entry
// was not measured and the last line was cut short by a killed run.
public sealed class DocTablesTests : IDisposable
{
    private static readonly string Vectors = Path.Combine(AppContext.BaseDirectory, "TestVectors");

    // A folder of this test's own for the generated pages, deleted with what it holds.
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("perfgate-build-tests-");

    public void Dispose() => _folder.Delete(recursive: true);

    private static DocTableData Data(bool withHistory = true) => new(
        ResultStore.Parse(File.ReadAllText(Path.Combine(Vectors, "doc-tables-results.json"))),
        withHistory ? ResultStore.ReadHistory(Path.Combine(Vectors, "doc-tables-history.jsonl"), out _) : null);

    private static string[] TableLines(string markdown) =>
        markdown.Split('\n').Where(l => l.StartsWith('|')).ToArray();

    [Theory]
    [InlineData("Json.*", "Json.RoundTrip.List9.BytesPerOp", true)]
    [InlineData("Json.*.BytesPerOp", "Json.RoundTrip.List9.BytesPerOp", true)] // * crosses dots
    [InlineData("Json.*.BytesPerOp", "Json.RoundTrip.List9.BytesPerOpX", false)] // anchored at both ends
    [InlineData("Json.RoundTrip.List?.BytesPerOp", "Json.RoundTrip.List9.BytesPerOp", true)]
    [InlineData("Json.RoundTrip.List?.BytesPerOp", "Json.RoundTrip.List10.BytesPerOp", false)]
    [InlineData("json.*", "Json.RoundTrip.List9.BytesPerOp", false)] // names are case-sensitive identifiers
    [InlineData("Json.Round(Trip).*", "Json.Round(Trip).X", true)] // everything but * and ? is literal
    public void A_pattern_is_a_glob_over_budget_names(string pattern, string name, bool matches) =>
        DocTables.Matches(pattern, name).Should().Be(matches);

    [Fact]
    public void Rows_carry_the_measured_figure_the_limit_with_its_direction_the_headroom_and_the_verdict()
    {
        var markdown = "<!-- table: budgets Json.Serialize.*,Json.Endpoint.*,Api.* budget kind measured limit unit headroom verdict -->\n<!-- /table -->\n";

        var lines = TableLines(DocTables.Rewrite(markdown, "doc.md", Data()));

        lines.Should().Equal(
            "| budget | kind | measured | limit | unit | headroom | verdict |",
            "|---|---|---:|---:|---|---:|---|",
            "| `Json.Serialize.Single.BytesPerOp` | allocated-bytes-per-op | 0 | ≤ 0 | B/op | exact | pass |",
            "| `Json.Endpoint.RequestsPerSecond` | requests-per-second-min | 15,000 | ≥ 5,000 | req/s | 200% | pass |",
            "| `Api.Delay.P99Ms` | p99-ms-max | 121 | ≤ 100 | ms | -21% | **fail** |"); // 120.5: figures of 100 and more are whole
    }

    [Fact]
    public void History_columns_take_each_runs_last_entry_of_the_same_profile_and_limit_and_leave_failed_runs_out_of_the_range()
    {
        var markdown = "<!-- table: budgets Json.RoundTrip.* budget runs failed min median max spread -->\n<!-- /table -->\n";

        var lines = TableLines(DocTables.Rewrite(markdown, "doc.md", Data()));

        // r0 ran against an earlier limit (14,000); r1 12,136; r2 12,100 then 12,120 (its last counts); r3 failed at
        // 12,500; r4 ran under profile local.
        lines[2].Should().Be("| `Json.RoundTrip.List9.BytesPerOp` | 3 | 1 | 12,120 | 12,128 | 12,136 | 0.1% |");
    }

    [Fact]
    public void The_default_columns_add_the_history_only_when_there_is_a_history()
    {
        var markdown = "<!-- table: budgets Json.Serialize.* -->\n<!-- /table -->\n";

        TableLines(DocTables.Rewrite(markdown, "doc.md", Data()))[0].Should()
            .Be("| budget | measured | limit | unit | headroom | verdict | runs | min | median | max | spread |");
        TableLines(DocTables.Rewrite(markdown, "doc.md", Data(withHistory: false)))[0].Should()
            .Be("| budget | measured | limit | unit | headroom | verdict |");
    }

    [Fact]
    public void A_budget_only_in_the_history_is_taken_from_its_latest_entry_and_marked()
    {
        var markdown = "<!-- table: budgets Sockets.Echo.* budget measured verdict runs -->\n<!-- /table -->\n";

        var text = DocTables.Rewrite(markdown, "doc.md", Data());

        // The not-measured Sockets.Echo.Syscalls entry is no figure, so it makes no row.
        TableLines(text).Skip(2).Should().Equal("| `Sockets.Echo.P99Ms` | 1.5 | pass† | 2 |");
        text.Should().Contain("† not in results.json: the latest entry in history.jsonl");
    }

    [Fact]
    public void Under_each_table_a_line_names_the_target_and_the_machine_and_date_of_the_run()
    {
        var markdown = "# Title\n\n<!-- table: budgets Json.RoundTrip.* budget measured -->\n<!-- /table -->\n\nAfter.\n";

        var text = DocTables.Rewrite(markdown, "doc.md", Data(withHistory: false));

        text.Should().Be(
            "# Title\n\n<!-- table: budgets Json.RoundTrip.* budget measured -->\n\n" +
            "| budget | measured |\n|---|---:|\n| `Json.RoundTrip.List9.BytesPerOp` | 12,136 |\n\n" +
            "Generated by `dotnet cake --target=Docs` from a run on 2 cores, Debian GNU/Linux 12 (bookworm), .NET 10.0.12 (2026-11-21).\n\n" +
            "<!-- /table -->\n\nAfter.\n");
    }

    [Fact]
    public void Rewriting_twice_changes_nothing_and_text_outside_the_markers_is_kept_byte_for_byte()
    {
        var markdown = "Intro with a | pipe and <!-- a comment -->\n<!-- table: budgets * -->\nstale row\n<!-- /table -->\nEnd without newline";

        var once = DocTables.Rewrite(markdown, "doc.md", Data());
        var twice = DocTables.Rewrite(once, "doc.md", Data());

        twice.Should().Be(once);
        once.Should().StartWith("Intro with a | pipe and <!-- a comment -->\n").And.EndWith("<!-- /table -->\nEnd without newline");
        once.Should().NotContain("stale row");
    }

    [Fact]
    public void A_marker_inside_a_fenced_code_block_is_an_example_and_left_alone()
    {
        var markdown = "```\n<!-- table: budgets Nothing.* [COLUMN...] -->\n<!-- /table -->\n```\n";

        DocTables.Rewrite(markdown, "doc.md", Data()).Should().Be(markdown);
    }

    [Fact]
    public void Update_directory_rewrites_only_the_files_that_change_and_a_second_run_rewrites_none()
    {
        var results = Path.Combine(_folder.FullName, "budgets");
        var docs = Path.Combine(_folder.FullName, "docs");
        Directory.CreateDirectory(results);
        Directory.CreateDirectory(Path.Combine(docs, "data"));
        File.Copy(Path.Combine(Vectors, "doc-tables-results.json"), Path.Combine(results, "results.json"));
        File.Copy(Path.Combine(Vectors, "doc-tables-history.jsonl"), Path.Combine(results, "history.jsonl"));
        File.Copy(Path.Combine(Vectors, "doc-tables-data.csv"), Path.Combine(docs, "data", "scaling.csv"));
        File.WriteAllText(Path.Combine(docs, "tables.md"), "<!-- table: budgets Json.* -->\n<!-- /table -->\n<!-- table: csv data/scaling.csv -->\n<!-- /table -->\n");
        File.WriteAllText(Path.Combine(docs, "prose.md"), "No tables here.\n");

        DocTables.UpdateDirectory(results, docs).Select(Path.GetFileName).Should().Equal("tables.md");
        DocTables.UpdateDirectory(results, docs).Should().BeEmpty();
    }

    [Fact]
    public void A_bad_marker_in_one_file_leaves_every_file_as_it_was()
    {
        var results = Path.Combine(_folder.FullName, "budgets");
        var docs = Path.Combine(_folder.FullName, "docs");
        Directory.CreateDirectory(results);
        Directory.CreateDirectory(docs);
        File.Copy(Path.Combine(Vectors, "doc-tables-results.json"), Path.Combine(results, "results.json"));
        const string Good = "<!-- table: budgets Json.* -->\n<!-- /table -->\n";
        File.WriteAllText(Path.Combine(docs, "a.md"), Good);
        File.WriteAllText(Path.Combine(docs, "b.md"), "<!-- table: budgets Nothing.* -->\n<!-- /table -->\n");

        var update = () => DocTables.UpdateDirectory(results, docs);

        update.Should().Throw<DocTablesException>().WithMessage("*b.md:1: the pattern 'Nothing.*' matches no budget*");
        File.ReadAllText(Path.Combine(docs, "a.md")).Should().Be(Good);
    }

    [Fact]
    public void A_csv_table_renders_the_data_file_with_its_provenance_and_formatted_figures()
    {
        var docs = DocsWithData();
        var markdown = "<!-- table: csv data/scaling.csv name ops_per_second note -->\n<!-- /table -->\n";

        var text = DocTables.Rewrite(markdown, Path.Combine(docs, "page.md"), Data());

        TableLines(text).Should().Equal(
            "| name | ops per second | note |",
            "|---|---:|---|",
            "| Bytes Single | 196,976 | warm, steady |",
            "| Bytes Single | 359,486 |  |");
        text.Should().Contain("Generated by `dotnet cake --target=Docs` from [data/scaling.csv](data/scaling.csv): Measured by hand on 2 cores, three runs.");
    }

    [Fact]
    public void A_joined_csv_table_adds_the_second_files_columns_matched_on_the_first_column()
    {
        var docs = DocsWithData();
        var markdown = "<!-- table: csv data/scaling.csv name ops_per_second join data/spread.csv largest_deviation -->\n<!-- /table -->\n";

        var text = DocTables.Rewrite(markdown, Path.Combine(docs, "page.md"), Data());

        TableLines(text).Should().Equal(
            "| name | ops per second | largest deviation |",
            "|---|---:|---|",
            "| Bytes Single | 196,976 | 0.02% |",
            "| Bytes Single | 359,486 | 0.02% |");
        text.Should().Contain("from [data/scaling.csv](data/scaling.csv) and [data/spread.csv](data/spread.csv): Measured by hand on 2 cores, three runs. Ten unchanged runs.");
    }

    [Theory]
    [InlineData("<!-- table: csv data/scaling.csv name join -->\n<!-- /table -->\n", "page.md:1: 'join' needs a data file")]
    [InlineData("<!-- table: csv data/scaling.csv name join data/spread.csv wattage -->\n<!-- /table -->\n", "page.md:1: the data file 'data/spread.csv' has no column 'wattage'")]
    public void A_join_without_a_file_or_with_an_unknown_column_is_an_error(string markdown, string message)
    {
        var docs = DocsWithData();

        var rewrite = () => DocTables.Rewrite(markdown, Path.Combine(docs, "page.md"), Data());

        rewrite.Should().Throw<DocTablesException>().Which.Message.Should().StartWith(Path.Combine(docs, message));
    }

    [Theory]
    [InlineData("<!-- table: budgets Nothing.* -->\n<!-- /table -->\n", "doc.md:1: the pattern 'Nothing.*' matches no budget")]
    [InlineData("<!-- table: budgets Json.* wattage -->\n<!-- /table -->\n", "doc.md:1: unknown column 'wattage'")]
    [InlineData("<!-- table: budgets -->\n<!-- /table -->\n", "doc.md:1: malformed table marker")]
    [InlineData("<!-- table: pie Json.* -->\n<!-- /table -->\n", "doc.md:1: malformed table marker")]
    [InlineData("text\n<!-- table: budgets Json.*\n<!-- /table -->\n", "doc.md:2: malformed table marker")]
    [InlineData("text\n\n<!-- table: budgets Json.* -->\nno end\n", "doc.md:3: the table opened here is never closed")]
    [InlineData("<!-- /table -->\n", "doc.md:1: '<!-- /table -->' closes no table")]
    [InlineData("<!-- table: budgets Json.* -->\n<!-- table: budgets Api.* -->\n<!-- /table -->\n", "doc.md:2: a table marker opens inside the table opened at line 1")]
    [InlineData("<!-- table: csv missing.csv -->\n<!-- /table -->\n", "doc.md:1: the data file 'missing.csv' does not exist")]
    public void A_malformed_marker_or_a_pattern_without_a_budget_is_an_error_naming_the_file_and_line(string markdown, string message)
    {
        var rewrite = () => DocTables.Rewrite(markdown, "doc.md", Data());

        rewrite.Should().Throw<DocTablesException>().Which.Message.Should().StartWith(message);
    }

    [Fact]
    public void A_missing_results_file_says_to_run_the_budgets_first()
    {
        var load = () => DocTableData.Load(_folder.FullName);

        load.Should().Throw<FileNotFoundException>().WithMessage("No results.json in *: run the budgets first (dotnet test).");
    }

    // A docs folder with two data files: data/scaling.csv and data/spread.csv (keyed on the same names).
    private string DocsWithData()
    {
        var docs = Path.Combine(_folder.FullName, "docs");
        Directory.CreateDirectory(Path.Combine(docs, "data"));
        File.Copy(Path.Combine(Vectors, "doc-tables-data.csv"), Path.Combine(docs, "data", "scaling.csv"));
        File.Copy(Path.Combine(Vectors, "doc-tables-join.csv"), Path.Combine(docs, "data", "spread.csv"));
        return docs;
    }
}
