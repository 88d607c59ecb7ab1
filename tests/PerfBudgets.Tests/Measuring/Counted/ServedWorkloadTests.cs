using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// The host's side of the all-threads meter: the line protocol CallgrindWorkloadHost drives.
public sealed class ServedWorkloadTests
{
    [Fact]
    public void Each_run_line_runs_its_operations_and_is_answered_done()
    {
        var ran = new List<int>();
        var output = new StringWriter();

        ServedWorkload.Serve(ran.Add, () => $"ok {ran.Sum()} operations", new StringReader("run 1\nrun 3\ncheck\n"), output);

        ran.Should().Equal(1, 3);
        output.ToString().Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries).Should().Equal("ready", "done", "done", "check ok 4 operations");
    }

    [Fact]
    public void Wait_returns_once_an_operation_on_other_threads_has_finished_and_rethrows_its_failure()
    {
        var finished = false;
        ServedWorkload.Wait(Task.Run(async () =>
        {
            await Task.Delay(50, TestContext.Current.CancellationToken);
            finished = true;
        }, TestContext.Current.CancellationToken));
        finished.Should().BeTrue();

        var failing = Task.Run(new Action(() => throw new IOException("the disk is full")), TestContext.Current.CancellationToken);
        var wait = () => ServedWorkload.Wait(failing);
        wait.Should().Throw<IOException>().WithMessage("the disk is full");
    }

    [Theory]
    [InlineData("run 0")]
    [InlineData("run -1")]
    [InlineData("run")]
    [InlineData("stop")]
    public void An_unknown_command_ends_the_host_with_an_error(string line)
    {
        var serve = () => ServedWorkload.Serve(_ => { }, () => "ok", new StringReader(line + "\n"), new StringWriter());

        serve.Should().Throw<InvalidOperationException>().WithMessage($"*'{line}'*");
    }
}
