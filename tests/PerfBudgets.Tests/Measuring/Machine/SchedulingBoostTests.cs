using System.Globalization;
using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

public sealed class SchedulingBoostTests
{
    [Fact]
    public void Raising_a_process_raises_its_threads_and_the_caller_and_disposing_puts_each_back()
    {
        if (!OperatingSystem.IsLinux())
        {
            return; // nice values per thread are Linux's; elsewhere the boost only notes that it did nothing
        }

        // A thread of this process that sleeps throughout stands for a server's thread pool worker.
        using var started = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        long tid = 0;
        var worker = new Thread(() =>
        {
            tid = OsThread.CurrentId()!.Value;
            started.Set();
            release.Wait();
        }) { IsBackground = true };
        worker.Start();
        started.Wait(TestContext.Current.CancellationToken);
        var self = OsThread.CurrentId()!.Value;
        var (selfBefore, workerBefore) = (Nice(self), Nice(tid));

        using (var boost = SchedulingBoost.Raise(Environment.ProcessId))
        {
            if (boost.Note is not null)
            {
                // Without CAP_SYS_NICE nothing may change, and the note says why.
                boost.Note.Should().Contain("CAP_SYS_NICE");
                (Nice(self), Nice(tid)).Should().Be((selfBefore, workerBefore));
                release.Set();
                return;
            }

            Nice(self).Should().Be(SchedulingBoost.RaisedNice);
            Nice(tid).Should().Be(SchedulingBoost.RaisedNice);
        }

        (Nice(self), Nice(tid)).Should().Be((selfBefore, workerBefore));
        release.Set();
    }

    private static int Nice(long tid)
    {
        var text = File.ReadAllText($"/proc/{tid.ToString(CultureInfo.InvariantCulture)}/stat");
        return int.Parse(text[(text.LastIndexOf(')') + 2)..].Split(' ')[16], CultureInfo.InvariantCulture);
    }
}
