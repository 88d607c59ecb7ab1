using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Running;

namespace PerfGate.Bench;

/// <summary>
/// BenchmarkDotNet entry point (not part of CI): <c>dotnet run -c Release --project bench -- --filter '*'</c>.
/// Commands that are not BenchmarkDotNet runs (<c>json-scaling</c>, the <c>hpack</c> interop command) are dispatched by name first.
/// </summary>
public static class Program
{
    private static readonly Dictionary<string, Func<string[], Task<int>>> Commands = new(StringComparer.Ordinal)
    {
        ["json-scaling"] = Json.JsonScalingCommand.RunAsync,
        ["hpack"] = HPack.HPackCommand.RunAsync,
    };

    public static async Task<int> Main(string[] args)
    {
        if (args.Length > 0 && Commands.TryGetValue(args[0], out var command))
        {
            return await command(args[1..]);
        }

        var config = DefaultConfig.Instance.AddDiagnoser(MemoryDiagnoser.Default);
        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args, config);
        return 0;
    }
}
