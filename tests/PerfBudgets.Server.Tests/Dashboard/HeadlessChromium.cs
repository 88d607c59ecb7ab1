using System.Diagnostics;

namespace PerfBudgets.Server.Tests.Dashboard;

/// <summary>
/// Debian's <c>chromium</c>, headless, as the dashboard's tests drive it: <c>--dump-dom URL</c> prints the DOM the
/// browser built from a page; <c>--screenshot</c> writes what it drew. Each run has its own profile folder, a time limit
/// and is killed (with its children) when it overruns. Where chromium is missing the test fails naming what to
/// install, unless <c>PERF_SKIP_BROWSER=1</c> says to skip it.
/// </summary>
internal static class HeadlessChromium
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    /// <summary>The DOM chromium built from <paramref name="url"/>, serialized as HTML.</summary>
    public static Task<string> DumpDomAsync(Uri url) => RunAsync(["--dump-dom", url.ToString()]);

    /// <summary>Writes a PNG of <paramref name="url"/> as chromium draws it, <paramref name="width"/> by <paramref name="height"/> pixels.</summary>
    public static Task ScreenshotAsync(Uri url, string png, int width = 1000, int height = 900) =>
        RunAsync([$"--screenshot={png}", $"--window-size={width},{height}", "--hide-scrollbars", url.ToString()]);

    private static async Task<string> RunAsync(string[] arguments)
    {
        var program = Find();
        var profile = Directory.CreateTempSubdirectory("perfbudgets-chromium-").FullName;
        try
        {
            var start = new ProcessStartInfo(program)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            // --no-sandbox: the tests may run as root, where chromium's sandbox refuses to start.
            foreach (var argument in new[] { "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-extensions", "--disable-background-networking", $"--user-data-dir={profile}" }.Concat(arguments))
            {
                start.ArgumentList.Add(argument);
            }

            var run = await ProcessTree.RunAsync(start, Timeout)
                ?? throw new TimeoutException($"chromium did not finish in {Timeout.TotalSeconds} s: {string.Join(' ', arguments)}");
            return run.ExitCode == 0
                ? run.Output
                : throw new InvalidOperationException($"chromium exited {run.ExitCode}: {run.Error}");
        }
        finally
        {
            Directory.Delete(profile, recursive: true);
        }
    }

    // PERF_CHROMIUM names the browser; otherwise Debian's chromium (or Ubuntu's chromium-browser) on the PATH.
    private static string Find()
    {
        var named = Environment.GetEnvironmentVariable("PERF_CHROMIUM");
        var candidates = named is { Length: > 0 } ? [named] : new[] { "chromium", "chromium-browser" };
        foreach (var candidate in candidates)
        {
            var path = Path.IsPathRooted(candidate)
                ? candidate
                : (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Select(d => Path.Combine(d, candidate)).FirstOrDefault(File.Exists);
            if (path is not null && File.Exists(path))
            {
                return path;
            }
        }

        var missing = $"A headless browser is needed to test the dashboard and {string.Join(" or ", candidates)} is not installed: " +
            "install Debian's chromium (apt-get install chromium) or set PERF_SKIP_BROWSER=1 to skip the browser tests.";
        if (Environment.GetEnvironmentVariable("PERF_SKIP_BROWSER") == "1")
        {
            Assert.Skip($"Dashboard not rendered in a browser: PERF_SKIP_BROWSER=1. {missing}");
        }

        Assert.Fail(missing);
        return "";
    }
}
