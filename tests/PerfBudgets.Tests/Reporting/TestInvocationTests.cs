using FluentAssertions;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Reporting;

public sealed class TestInvocationTests
{
    [Fact]
    public void Under_dotnet_test_on_Linux_the_run_is_the_commands_and_every_gate_of_the_process_shares_it()
    {
        if (!OperatingSystem.IsLinux())
        {
            TestInvocation.Id.Should().BeNull("only Linux's /proc is read");
            return;
        }

        // This suite runs under `dotnet test`, as the README and CI run it.
        TestInvocation.Id.Should().MatchRegex(@"^\d{8}T\d{6}Z-dotnet-test-\d+$");
        RunIdentity.Of(null, null).RunId.Should().Be(TestInvocation.Id);
        RunIdentity.Of("named", null).RunId.Should().Be("named", "PERF_RUN_ID, when set, names the run");
    }
}
