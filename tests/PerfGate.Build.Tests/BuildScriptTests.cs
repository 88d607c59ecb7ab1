using System.Text.RegularExpressions;
using PerfBudgets.Budgets;

namespace PerfGate.Build.Tests;

// build.cake sets the harness's environment variables for the suites and the tool; it names them once, and every
// name it uses must be one the harness reads (HarnessEnvironment), or the setting would be lost without a word.
public sealed partial class BuildScriptTests
{
    [Fact]
    public void Every_PERF_variable_build_cake_names_is_one_the_harness_reads()
    {
        var names = PerfName().Matches(File.ReadAllText(Path.Combine(RepositoryRoot.Path, "build.cake"))).Select(m => m.Groups[1].Value).ToList();

        names.Should().NotBeEmpty().And.OnlyHaveUniqueItems("each is named once")
            .And.BeSubsetOf(HarnessEnvironment.Variables.Select(v => v.Name));
    }

    [GeneratedRegex("\"(PERF_[A-Z_]+)\"")]
    private static partial Regex PerfName();
}
