using System.Runtime.CompilerServices;
using PerfBudgets.Load;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Reporting.Exporters;

/// <summary>
/// The exporters of one results folder in this process: every result and load run a gate records goes to the store
/// (<see cref="ResultStore"/>, which persists it), then <c>summary.md</c> (<see cref="SummaryExporter"/>) is rewritten
/// from the stored results under the store's lock; the results this process recorded go to the CI step summary
/// (<see cref="StepSummaryExporter"/>) once, as the process exits.
/// </summary>
/// <remarks>
/// One per <see cref="ResultStore"/> object, shared by every gate given that store (<see cref="Of"/>), so a process
/// appends one step-summary table per store however many gates it builds over it; two stores over one folder are two
/// exporters, each with its own table. The step summary file is the first one a gate's options name.
/// </remarks>
internal sealed class RunExporters
{
    private static readonly ConditionalWeakTable<ResultStore, RunExporters> PerStore = [];

    private readonly object _gate = new();
    private readonly ResultStore _store;
    private readonly List<BudgetResult> _thisProcess = [];
    private string? _stepSummaryFile;

    private RunExporters(ResultStore store) => _store = store;

    /// <summary>The exporters of <paramref name="store"/>'s folder in this process.</summary>
    public static RunExporters Of(ResultStore store)
    {
        ArgumentNullException.ThrowIfNull(store);
        return PerStore.GetValue(store, s => new RunExporters(s));
    }

    /// <summary>
    /// Stores <paramref name="result"/> as part of <paramref name="run"/> and rewrites <c>summary.md</c>. With a
    /// <paramref name="stepSummaryFile"/> (<see cref="BudgetGateOptions.StepSummaryFile"/>), this process's results are
    /// appended to it as the process exits.
    /// </summary>
    public void Record(BudgetResult result, RunIdentity run, string? stepSummaryFile)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(run);
        lock (_gate)
        {
            _thisProcess.Add(result);
            if (stepSummaryFile is not null && _stepSummaryFile is null)
            {
                _stepSummaryFile = stepSummaryFile;
                AppDomain.CurrentDomain.ProcessExit += (_, _) => ExportStepSummary();
            }

            _store.Record(result, run, stored => ExportSummary(stored, run));
        }
    }

    /// <summary>Stores <paramref name="load"/> (<see cref="ResultStore.RecordLoad"/>) and rewrites <c>summary.md</c>.</summary>
    public void RecordLoad(LoadResult load)
    {
        ArgumentNullException.ThrowIfNull(load);
        lock (_gate)
        {
            _store.RecordLoad(load, stored => ExportSummary(stored, run: null));
        }
    }

    /// <summary>
    /// Appends the results this process recorded since the last call to the step summary file, when a gate named one:
    /// what the process exit does (once, in a run); a test calls it to read the text without ending its process.
    /// </summary>
    internal void ExportStepSummary()
    {
        lock (_gate)
        {
            if (_stepSummaryFile is { } file && _thisProcess.Count > 0)
            {
                StepSummaryExporter.Instance.Export(new RunResults(_thisProcess.ToList()), StepSummaryExporter.Target(file));
                _thisProcess.Clear();
            }
        }
    }

    // Called by the store under its lock file, with every result results.json now holds.
    private void ExportSummary(IReadOnlyList<BudgetResult> stored, RunIdentity? run) =>
        SummaryExporter.Instance.Export(new RunResults(stored, run), ExportTarget.InFolder(_store.Directory, SummaryExporter.FileName));
}
