namespace PerfBudgets.Reporting.Exporters;

/// <summary>
/// One output of a run, rendered from the one result model (<see cref="RunResults"/>): <c>summary.md</c>
/// (<see cref="SummaryExporter"/>), the CI step summary (<see cref="StepSummaryExporter"/>) and, in the
/// PerfBudgets.Reporting.Html add-on, <c>report.html</c>. Small and one per output, as BenchmarkDotNet's exporters are.
/// </summary>
/// <remarks>
/// Dependencies run one way: <c>Budgets</c> ← <c>Measuring</c> ← <c>Load</c> ← <c>Reporting</c> (the result model) ←
/// <c>Reporting.Storage</c> (persists and reads <c>results.json</c> and <c>history.jsonl</c>, renders nothing) ←
/// <c>Reporting.Exporters</c> (renders) ← the gate. An exporter reads the model, never the store's files or the
/// environment; where its text goes is the caller's <see cref="ExportTarget"/>. <c>results.json</c> and
/// <c>history.jsonl</c> are not exporters' outputs: they are what the store reads back (to merge the test processes'
/// results, as a baseline, for the history), so they are its format.
/// </remarks>
public interface IRunExporter
{
    /// <summary>What the output is, for messages: its file name, or what it is appended to.</summary>
    string Name { get; }

    /// <summary>The output's whole text for <paramref name="run"/>.</summary>
    string Render(RunResults run);

    /// <summary>Renders <paramref name="run"/> and writes the text to <paramref name="target"/>; returns the file written.</summary>
    string Export(RunResults run, ExportTarget target)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(target);
        target.Write(Render(run));
        return target.Path;
    }
}
