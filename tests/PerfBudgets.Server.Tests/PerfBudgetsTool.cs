using System.Diagnostics;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// The <c>perfbudgets</c> tool run as its own process, as CI runs it (<c>dotnet PerfBudgets.Tool.dll upload …</c>), for
/// the tests that need its client and a running server together; the tool's own tests are in
/// tests/PerfBudgets.Tool.Tests.
/// </summary>
internal static class PerfBudgetsTool
{
    /// <summary>The tool's exit code for bad input: a refusal by the server, a file it cannot read.</summary>
    public const int BadInput = 1;

    private static readonly TimeSpan Limit = TimeSpan.FromMinutes(2);

    public static Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] arguments) =>
        RunAsync(new Dictionary<string, string>(), arguments);

    /// <summary>
    /// <c>perfbudgets upload</c> of <paramref name="resultsJson"/> as the run of <paramref name="commit"/> (parents
    /// <paramref name="parents"/>) to <paramref name="server"/>'s project with its token, through <paramref name="address"/>
    /// where given; the files it reads are written to <paramref name="folder"/>.
    /// </summary>
    public static async Task<(int ExitCode, string Output, string Error)> UploadAsync(RunningResultsServer server, string folder, string commit,
        string parents, string resultsJson, Uri? address = null)
    {
        var results = Path.Combine(folder, $"results-{commit}.json");
        var token = Path.Combine(folder, "token");
        await File.WriteAllTextAsync(results, resultsJson, TestContext.Current.CancellationToken);
        await File.WriteAllTextAsync(token, server.Token, TestContext.Current.CancellationToken);
        return await RunAsync("upload", "--server", (address ?? server.Server.Address).ToString(), "--project", RunningResultsServer.Project,
            "--token-file", token, "--commit", commit, "--parents", parents, "--runtime", ".NET 10.0.12", "--machine", "ci-runner-1", "--results", results);
    }

    /// <summary>Runs the tool with <paramref name="arguments"/>, with <paramref name="environment"/> added to the test's own.</summary>
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(IReadOnlyDictionary<string, string> environment, params string[] arguments)
    {
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "PerfBudgets.Tool.dll"));
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // A step summary of the CI running these tests is not the test's to write to.
        start.Environment.Remove("GITHUB_STEP_SUMMARY");
        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        return await ProcessTree.RunAsync(start, Limit)
            ?? throw new TimeoutException($"perfbudgets {string.Join(' ', arguments)} did not finish in {Limit.TotalSeconds} s.");
    }
}
