namespace PerfBudgets.Reporting.Exporters;

/// <summary>
/// The CI step summary (GitHub Actions' <c>GITHUB_STEP_SUMMARY</c>, named by <see cref="BudgetGateOptions.StepSummaryFile"/>):
/// the Markdown table (<see cref="SummaryTable"/>) of the results one test process recorded, and a line break, appended
/// once as the process exits (<see cref="RunExporters"/>), so each test project adds its own table.
/// </summary>
internal sealed class StepSummaryExporter : IRunExporter
{
    /// <summary>The one instance: the exporter holds no state.</summary>
    public static IRunExporter Instance { get; } = new StepSummaryExporter();

    private StepSummaryExporter()
    {
    }

    /// <inheritdoc/>
    public string Name => "step summary";

    /// <inheritdoc/>
    public string Render(RunResults run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return SummaryTable.Render(run.Results) + Environment.NewLine;
    }

    /// <summary>The step summary file <paramref name="stepSummaryFile"/>, appended to (other steps write it too).</summary>
    public static ExportTarget Target(string stepSummaryFile) => new(stepSummaryFile, Append: true);
}
