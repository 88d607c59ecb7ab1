namespace PerfBudgets.Tests.Support;

/// <summary>
/// A folder of its own under the system's temporary folder, for a test class's budget files and results; deleted with
/// everything in it on <see cref="Dispose"/>. It is not created here: the code under test creates it when it writes.
/// </summary>
internal sealed class TemporaryDirectory : IDisposable
{
    /// <summary>The folder's full path.</summary>
    public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "perfgate-tests-" + Guid.NewGuid().ToString("N"));

    /// <inheritdoc />
    public void Dispose()
    {
        if (Directory.Exists(Path))
        {
            Directory.Delete(Path, recursive: true);
        }
    }
}
