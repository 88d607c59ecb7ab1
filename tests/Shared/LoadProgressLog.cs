using PerfBudgets.Load;

namespace Shared;

/// <summary>
/// Sends a load scenario's once-a-second progress line to the console while it runs (as an xunit diagnostic message,
/// which <c>dotnet test</c> prints live) and to the test's own output, so a long run does not look hung.
/// </summary>
internal static class LoadProgressLog
{
    /// <summary>A progress callback for <see cref="LoadScenario.Progress"/>.</summary>
    public static Action<LoadProgress> To(ITestOutputHelper output)
    {
        ArgumentNullException.ThrowIfNull(output);
        // Captured here: the runner reports from a timer thread, outside the test's async flow.
        var context = TestContext.Current;
        return progress =>
        {
            var line = progress.ToString();
            context.SendDiagnosticMessage(line);
            output.WriteLine(line);
        };
    }
}
