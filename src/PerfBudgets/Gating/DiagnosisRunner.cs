using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// Runs a check's diagnosis (what broke the budget) within <see cref="BudgetGateOptions.DiagnosisTimeout"/>. Whatever
/// goes wrong, the budget's own failure must still be reported: a diagnosis that throws or hangs gives an attribution
/// that says why it is missing.
/// </summary>
internal sealed class DiagnosisRunner(TimeSpan timeout)
{
    // The diagnosis runs on a pool thread so a hung one cannot hold the failure back; the profilers filter by the thread
    // that runs the operation, whichever it is.
    public Attribution Run(Func<Attribution> diagnose)
    {
        var task = Task.Run(diagnose);
        try
        {
            return task.Wait(timeout)
                ? task.Result
                : Attribution.Unavailable($"the diagnosis took longer than {Figures.Format(timeout.TotalSeconds)} s");
        }
        catch (AggregateException e)
        {
            var cause = e.InnerExceptions.Count == 1 ? e.InnerException! : e;
            return Attribution.Unavailable($"the diagnosis failed: {cause.GetType().Name}: {FirstLine(cause.Message)}");
        }
    }

    private static string FirstLine(string text)
    {
        var end = text.IndexOfAny(['\r', '\n']);
        return end < 0 ? text : text[..end];
    }
}
