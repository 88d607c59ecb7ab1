using System.Diagnostics;

namespace PerfGate.Build.Tests.Breaks;

// build/breaks holds the deliberate regressions each budget is proven against: a patch that no longer applies proves
// nothing, and is found out only on the day someone needs it. Each must apply to the tree as it is.
public sealed class BreakPatchesTests
{
    public static TheoryData<string> Patches() => new(Directory.GetFiles(Path.Combine(RepositoryRoot.Path, "build", "breaks"), "*.patch").Select(Path.GetFileName).Order(StringComparer.Ordinal)!);

    [Theory]
    [MemberData(nameof(Patches))]
    public async Task The_break_applies_to_the_tree(string patch)
    {
        var start = new ProcessStartInfo("git", ["apply", "--check", Path.Combine("build", "breaks", patch)])
        {
            WorkingDirectory = RepositoryRoot.Path,
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        };
        using var git = Process.Start(start)!;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        timeout.CancelAfter(TimeSpan.FromMinutes(1));
        var errors = git.StandardError.ReadToEndAsync(timeout.Token);
        await git.StandardOutput.ReadToEndAsync(timeout.Token);
        await git.WaitForExitAsync(timeout.Token);

        git.ExitCode.Should().Be(0, $"build/breaks/{patch} must apply to the tree (regenerate it with git diff): {await errors}");
    }
}
