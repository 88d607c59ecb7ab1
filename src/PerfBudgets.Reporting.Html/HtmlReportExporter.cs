using PerfBudgets.Reporting.Exporters;

namespace PerfBudgets.Reporting.Html;

/// <summary>
/// <c>report.html</c> as one of the core's exporters (<see cref="IRunExporter"/>): the page <see cref="HtmlReport"/>
/// renders from the results, load runs and history of a results folder (<see cref="RunResults.Read"/>).
/// </summary>
/// <param name="generatedUtc">The time the page says it was generated.</param>
internal sealed class HtmlReportExporter(DateTimeOffset generatedUtc) : IRunExporter
{
    /// <inheritdoc/>
    public string Name => HtmlReport.FileName;

    /// <inheritdoc/>
    public string Render(RunResults run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return HtmlReport.Render(run.Results, run.Loads, run.History, generatedUtc, run.Notes);
    }
}
