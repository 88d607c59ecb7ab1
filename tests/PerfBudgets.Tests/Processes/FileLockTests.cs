using PerfBudgets.Processes;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Processes;

// The one lock between processes that the measurement lock, the base builds and the results store share.
public sealed class FileLockTests : IDisposable
{
    private readonly TemporaryDirectory _folder = new();

    public void Dispose() => _folder.Dispose();

    private string LockPath => Path.Combine(_folder.Path, "nested", "a.lock");

    [Fact]
    public async Task A_second_holder_waits_for_the_first_and_gives_up_at_its_timeout()
    {
        var first = FileLock.TryAcquire(LockPath, TimeSpan.FromSeconds(1));
        first.Should().NotBeNull("the folder is created and nobody holds the file");

        FileLock.TryAcquire(LockPath, TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(20)).Should().BeNull();

        var release = Task.Delay(300, TestContext.Current.CancellationToken).ContinueWith(_ => first!.Value.Held.Dispose(), TaskScheduler.Default);
        var second = FileLock.TryAcquire(LockPath, TimeSpan.FromSeconds(10), TimeSpan.FromMilliseconds(20));
        await release;
        second.Should().NotBeNull();
        second!.Value.Waited.Should().BeGreaterThan(TimeSpan.FromMilliseconds(200));
        second.Value.Held.Dispose();
    }

    [Fact]
    public void Releasing_keeps_the_file_so_a_waiter_and_a_newcomer_lock_the_same_one()
    {
        FileLock.TryAcquire(LockPath, TimeSpan.FromSeconds(1))!.Value.Held.Dispose();

        File.Exists(LockPath).Should().BeTrue("a deleted lock file lets two processes each lock a file of that name");
    }
}
