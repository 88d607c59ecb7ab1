namespace PerfBudgets.Reporting.Exporters;

/// <summary>
/// <c>summary.md</c>: the Markdown table (<see cref="SummaryTable"/>) of every result in <c>results.json</c>, rewritten
/// after every result is stored, under the store's lock (<see cref="RunExporters"/>), so it always matches the file.
/// </summary>
internal sealed class SummaryExporter : IRunExporter
{
    /// <summary>The file name written into the results folder.</summary>
    public const string FileName = "summary.md";

    /// <summary>The one instance: the exporter holds no state.</summary>
    public static IRunExporter Instance { get; } = new SummaryExporter();

    private SummaryExporter()
    {
    }

    /// <inheritdoc/>
    public string Name => FileName;

    /// <inheritdoc/>
    public string Render(RunResults run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return SummaryTable.Render(run.Results, run.Run?.RunId);
    }
}
