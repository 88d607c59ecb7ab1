namespace Startup.Workloads;

/// <summary>
/// The minimal app: the same host builder as the system under test (<c>WebApplication.CreateBuilder</c>, its defaults
/// and configuration sources), one endpoint, no MVC, no options, nothing else. Not top-level statements: their
/// <c>Program</c> would clash with the system under test's in the suite that references both.
/// </summary>
internal static class Program
{
    private static async Task Main(string[] args)
    {
        var app = WebApplication.CreateBuilder(args).Build();
        app.MapGet("/", () => "ok");
        await app.RunAsync();
    }
}
