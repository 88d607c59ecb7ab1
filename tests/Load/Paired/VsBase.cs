using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace PerfGate.Tests.Load.Paired;

/// <summary>
/// The base commit's build of the app, for the paired budgets (<c>.VsBase</c>): resolved and built once per test run
/// (<see cref="BaseBuild"/>), or the reason there is none, which every paired budget then reports as not measured.
/// </summary>
internal static class VsBase
{
    private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(5);

    private static readonly Lazy<(BaseBuild? Base, string? Assembly, string Reason)> App = new(() =>
    {
        var found = BaseBuild.TryResolve(AppContext.BaseDirectory, out var reason);
        if (found is null)
        {
            return (null, null, reason);
        }

        try
        {
            return (found, found.BuildProject(Path.Combine(found.RepositoryRoot, "src", "SystemUnderTest", "SystemUnderTest.csproj"), BuildTimeout), string.Empty);
        }
        catch (BaseBuildException e)
        {
            return (found, null, $"the base {found.Description} did not build: {e.Message}");
        }
    });

    /// <summary>The base's build of the app and the base's description, or reports every budget named as not measured (which throws).</summary>
    public static (string Assembly, string Description) AppOrNotMeasured(BudgetGate gate, params string[] budgets)
    {
        var (found, assembly, reason) = App.Value;
        if (found is not null && assembly is not null)
        {
            return (assembly, found.Description);
        }

        // Every budget is recorded as not measured; the first one's report ends the test.
        Exception? first = null;
        foreach (var budget in budgets)
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
