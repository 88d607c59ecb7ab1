using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using PerfGate.Build.CrossCheck;

namespace PerfGate.Build;

/// <summary>
/// <c>crosscheck URL --tool PerfBudgets.Tool.dll [--connections N] [--duration S] [--server-pid PID] [--wrk PATH] [--out FILE]</c>:
/// GET URL at the same concurrency with the PerfBudgets load runner (<c>perfbudgets load</c> in a process of its own)
/// and with wrk, one after the other, after a 3 s wrk run that warms the server, and prints the two side by side
/// (<see cref="CrossCheckTable"/>). The Cake target Load.CrossCheck runs it against the system under test.
/// </summary>
/// <remarks>
/// Each generator's figures are read from what it writes for machines: the load command's <c>load rps=</c> line and
/// wrk's summary as JSON from its Lua <c>done()</c> hook (<see cref="WrkSummary.DoneScript"/>).
/// </remarks>
internal static class CrossCheckCommand
{
    private const double WarmUpSeconds = 3;

    // The longest run compared; the load command bounds its own runs to an hour as well.
    private const int MaxDurationSeconds = 3600;

    public static Command Create()
    {
        var url = new Argument<string>("URL") { Description = "The endpoint both generators GET, e.g. http://127.0.0.1:5000/api/employees?count=9." };
        var connections = new Option<int>("--connections") { Description = "Connections of each generator (closed model).", DefaultValueFactory = _ => 16 };
        var duration = new Option<int>("--duration") { Description = "Seconds measured, for each generator.", DefaultValueFactory = _ => 10 };
        var serverPid = new Option<int?>("--server-pid") { Description = "The server's process on this machine: its CPU per request is shown." };
        var wrk = new Option<string?>("--wrk") { Description = "The wrk program (default: wrk on PATH)." };
        var tool = new Option<string>("--tool") { Description = "The perfbudgets tool's assembly (PerfBudgets.Tool.dll), whose load command is our runner.", Required = true };
        var output = new Option<string?>("--out") { Description = "A file the table is also written to." };
        var command = new Command("crosscheck", "Runs GET URL with the PerfBudgets load runner and with wrk, one after the other, and prints both.")
        {
            url, tool, connections, duration, serverPid, wrk, output,
        };
        command.SetAction(parseResult => Program.Run(() =>
        {
            var copies = parseResult.GetValue(connections);
            var seconds = parseResult.GetValue(duration);
            if (copies is < 1 or > 10_000 || seconds is < 1 or > MaxDurationSeconds)
            {
                throw new BuildInputException($"--connections {copies} or --duration {seconds} is out of range: give 1 to 10,000 connections and 1 to {MaxDurationSeconds} s.");
            }

            var toolPath = Path.GetFullPath(parseResult.GetValue(tool)!);
            if (!File.Exists(toolPath))
            {
                throw new BuildInputException($"--tool {toolPath} does not exist: build src/PerfBudgets.Tool first.");
            }

            var table = Run(parseResult.GetValue(url)!, toolPath, copies, seconds, parseResult.GetValue(serverPid), parseResult.GetValue(wrk) ?? OnPath("wrk"));
            Console.WriteLine();
            Console.WriteLine(table);
            if (parseResult.GetValue(output) is { } file)
            {
                File.WriteAllText(file, table);
                Console.WriteLine($"Written to {file}");
            }

            return 0;
        }));
        return command;
    }

    private static string Run(string url, string tool, int copies, int seconds, int? serverPid, string wrk)
    {
        using var server = serverPid is { } pid ? Process.GetProcessById(pid) : null;
        double ServerCpuSeconds()
        {
            server?.Refresh();
            return server?.TotalProcessorTime.TotalSeconds ?? double.NaN;
        }

        var script = Path.Combine(Path.GetTempPath(), $"perfbudgets-crosscheck-{Guid.NewGuid():N}.lua");
        File.WriteAllText(script, WrkSummary.DoneScript);
        try
        {
            // The server is warmed (JIT, pools) before either generator is measured, so neither pays for its start.
            Console.WriteLine("Warming the server: wrk 3 s");
            TimedProcess.Run(wrk, ["-t2", $"-c{copies}", "-d3s", url]);

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Our runner: {copies} copies (closed model), {WarmUpSeconds} s warm-up + {seconds} s, {url}"));
            var serverBefore = ServerCpuSeconds();
            var ours = TimedProcess.Run("dotnet", [tool, "load", url, "--connections", $"{copies}", "--warmup", string.Create(CultureInfo.InvariantCulture, $"{WarmUpSeconds}"), "--duration", $"{seconds}"]);
            var oursCpu = new CrossCheckTable.Cpu(ours.CpuSeconds, ServerCpuSeconds() - serverBefore);

            Console.WriteLine($"wrk: 2 threads, {copies} connections, {seconds} s, --latency");
            serverBefore = ServerCpuSeconds();
            var theirs = TimedProcess.Run(wrk, ["-t2", $"-c{copies}", $"-d{seconds}s", "--latency", "-s", script, url]);
            var theirsCpu = new CrossCheckTable.Cpu(theirs.CpuSeconds, ServerCpuSeconds() - serverBefore);

            var endpoint = $"GET {new Uri(url).PathAndQuery}";
            return CrossCheckTable.Render(endpoint, copies, seconds, WarmUpSeconds, LoadSummary.Parse(ours.Output), oursCpu, WrkSummary.Parse(theirs.Output), theirsCpu);
        }
        finally
        {
            File.Delete(script);
        }
    }

    private static string OnPath(string name) =>
        (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator)
            .Select(folder => Path.Combine(folder, name)).FirstOrDefault(File.Exists)
        ?? throw new BuildInputException($"crosscheck needs {name}, the independent load generator, and it is not on PATH. Install it: `sudo apt-get install wrk` (Debian/Ubuntu), `brew install wrk` (macOS); then run the cross-check again.");
}
