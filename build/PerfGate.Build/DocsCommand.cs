using System.CommandLine;
using PerfGate.Build.Docs;

namespace PerfGate.Build;

/// <summary>
/// <c>docs [RESULTS_DIR] [DOCS_DIR]</c> (this repository's tool, build/PerfGate.Build): fills the table markers of the markdown files under DOCS_DIR from
/// RESULTS_DIR/results.json and the history beside it (<see cref="DocTables"/>); the Cake target Docs runs it.
/// </summary>
internal static class DocsCommand
{
    public static Command Create()
    {
        var results = new Argument<string>("RESULTS_DIR")
        {
            Description = "The results folder holding results.json and history.jsonl (default artifacts/budgets).",
            DefaultValueFactory = _ => Path.Combine("artifacts", "budgets"),
        };
        var docs = new Argument<string>("DOCS_DIR")
        {
            Description = "The folder of markdown files whose <!-- table: ... --> markers are filled (default docs).",
            DefaultValueFactory = _ => "docs",
        };
        var files = new Option<string[]>("--file")
        {
            Description = "A markdown file outside DOCS_DIR whose table markers are filled too (e.g. README.md); may be repeated.",
            DefaultValueFactory = _ => [],
        };
        var generatedBy = new Option<string>("--generated-by")
        {
            Description = $"The command the line under each table names as its generator (default: {DocTables.DefaultGeneratedBy}).",
            DefaultValueFactory = _ => DocTables.DefaultGeneratedBy,
        };
        var command = new Command("docs", "Fills the generated tables of DOCS_DIR/*.md (and any --file) from RESULTS_DIR/results.json and history.jsonl.") { results, docs, files, generatedBy };
        command.SetAction(parseResult => Program.Run(() =>
        {
            var resultsDirectory = Path.GetFullPath(parseResult.GetValue(results)!);
            var docsDirectory = Path.GetFullPath(parseResult.GetValue(docs)!);
            var markdown = DocTables.MarkdownFiles(docsDirectory).Concat(parseResult.GetValue(files)!.Select(Path.GetFullPath));
            var changed = DocTables.UpdateFiles(resultsDirectory, markdown, parseResult.GetValue(generatedBy)!);
            Console.WriteLine(changed.Count == 0
                ? $"Docs: every table in {docsDirectory} is up to date with {resultsDirectory}"
                : $"Docs: rewrote {string.Join(", ", changed.Select(f => Path.GetRelativePath(Environment.CurrentDirectory, f)))}");
            return 0;
        }));
        return command;
    }
}
