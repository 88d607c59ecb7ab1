using System.Diagnostics;
using PerfBudgets.Processes;

namespace PerfBudgets.Tests.Processes;

// Children that hang, die or talk: each ends within its deadline and says who it was and what it last wrote.
public sealed class ChildProcessTests
{
    private static readonly TimeSpan Short = TimeSpan.FromSeconds(1);

    [Fact]
    public void A_host_that_never_answers_is_killed_at_its_deadline_naming_itself_and_its_standard_error()
    {
        using var host = ChildProcess.Start("bash", ["-c", "echo 'loading the workload' >&2; echo 'stuck in Warm()' >&2; sleep 600"], "the workload host Hangs.dll", interactive: true);
        var clock = Stopwatch.StartNew();

        var act = () => host.Expect("ready", Short);

        act.Should().Throw<ChildProcessException>().WithMessage(
            "the workload host Hangs.dll did not answer 'ready' within 1 s and was killed; its standard error ended: loading the workload | stuck in Warm()");
        clock.Elapsed.Should().BeLessThan(TimeSpan.FromSeconds(10));
        host.Process.HasExited.Should().BeTrue("its tree was killed");
    }

    [Fact]
    public void A_host_that_answers_out_of_turn_is_named_with_what_it_said()
    {
        using var host = ChildProcess.Start("bash", ["-c", "read line; echo \"no $line\"; echo 'bad input' >&2; sleep 1"], "the workload host Echo.dll", interactive: true);

        host.WriteLine("run 5");
        var act = () => host.Expect("done", TimeSpan.FromSeconds(30));

        act.Should().Throw<ChildProcessException>().WithMessage("the workload host Echo.dll answered 'no run 5' instead of 'done'*");
    }

    [Fact]
    public void A_run_past_its_deadline_is_killed_with_its_tree()
    {
        var clock = Stopwatch.StartNew();

        var result = ChildProcess.Run("bash", ["-c", "sleep 600 & sleep 600; wait"], Short);

        result.TimedOut.Should().BeTrue();
        result.ExitCode.Should().Be(-1);
        result.Output.Should().Be("bash did not finish within 1 s and was killed");
        clock.Elapsed.Should().BeLessThan(TimeSpan.FromSeconds(10));
    }

    [Fact]
    public void A_run_answers_its_exit_code_output_and_the_last_lines_of_its_standard_error()
    {
        var script = "echo out; for i in $(seq 1 50); do echo \"err $i\" >&2; done; exit 3";

        var result = ChildProcess.Run("bash", ["-c", script], TimeSpan.FromSeconds(30));

        result.ExitCode.Should().Be(3);
        result.Output.Should().Be("out\n");
        result.ErrorTail.Split(" | ").Should().HaveCount(ChildProcess.StandardErrorLines).And.EndWith("err 50");
        result.Combined.Should().StartWith("out | err 31");
    }

    [Fact]
    public void Arguments_are_passed_one_by_one_and_variables_set_or_removed()
    {
        var result = ChildProcess.Run("bash", ["-c", "printf '%s|' \"$1\" \"$PERF_CHILD_SET\" \"${MSBuildExtensionsPath:-gone}\"", "-", "two words; $HOME"], TimeSpan.FromSeconds(30),
            environment: new Dictionary<string, string?> { ["PERF_CHILD_SET"] = "set", ["MSBuildExtensionsPath"] = "/sdk" }, removeVariables: ["MSBuild"]);

        result.Output.Should().Be("two words; $HOME|set|/sdk|\n", "set after removal: a variable named is set even where a prefix removes its kind");
    }

    [Fact]
    public void A_program_that_does_not_exist_is_named()
    {
        var result = ChildProcess.Run("no-such-program-here", [], Short);

        result.ExitCode.Should().Be(-1);
        result.ErrorTail.Should().StartWith("no-such-program-here (no-such-program-here) could not be started");
    }
}
