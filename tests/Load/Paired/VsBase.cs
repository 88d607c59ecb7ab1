using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace Load.Paired;

/// <summary>
/// The base commit's build of the app, for the paired budgets (<c>.VsBase</c>): resolved and built once per test run
/// (<see cref="BaseBuild"/>), or the reason there is none, which every paired budget then reports as not measured; or,
/// where the head's inputs to the app are the base's (<see cref="BaseBuild.SameInputs"/>: a commit of documentation),
/// neither built nor run, and every paired budget checked as not run (head ÷ base is 1 by construction).
/// </summary>
internal static class VsBase
{
    private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(5);

    private static readonly Lazy<(BaseBuild? Base, string? Assembly, string? SameInputs, string Reason)> App = new(() =>
    {
        var found = BaseBuild.TryResolve(AppContext.BaseDirectory, out var reason);
        if (found is null)
        {
            return (null, null, null, reason);
        }

        var project = Path.Combine(found.RepositoryRoot, "src", "SystemUnderTest", "SystemUnderTest.csproj");
        if (found.SameInputs(project) is { } sameInputs)
        {
            return (found, null, sameInputs, string.Empty);
        }

        try
        {
            return (found, found.BuildProject(project, BuildTimeout), null, string.Empty);
        }
        catch (BaseBuildException e)
        {
            return (found, null, null, $"the base {found.Description} did not build: {e.Message}");
        }
    });

    /// <summary>
    /// The base's build of the app and the base's description; or null when the head's app cannot differ from the
    /// base's, after checking every budget named as not run (<see cref="PairedComparison.SameInputs"/>, with its
    /// figure); or, where there is no base, reports every budget named as not measured (which throws).
    /// </summary>
    public static (string Assembly, string Description)? AppOrNotMeasured(BudgetGate gate, params (string Budget, string Figure)[] budgets)
    {
        var (found, assembly, sameInputs, reason) = App.Value;
        if (found is not null && assembly is not null)
        {
            return (assembly, found.Description);
        }

        if (sameInputs is not null)
        {
            gate.CheckAll([.. budgets.Select(b => gate.VsBaseCheck(b.Budget, PairedComparison.SameInputs(b.Figure, sameInputs)))]);
            return null;
        }

        // Every budget is recorded as not measured; the first one's report ends the test.
        Exception? first = null;
        foreach (var (budget, _) in budgets)
        {
            try
            {
                gate.NotMeasured(budget, reason);
            }
            catch (Exception e) when (e is PerfBudgetsException)
            {
                first ??= e;
            }
        }

        throw first!;
    }
}
