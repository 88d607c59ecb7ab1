using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// A counted start takes tiering from the app's runtimeconfig.json and names every setting it overrides.
public sealed class CountedStartSettingsTests : IDisposable
{
    private readonly TemporaryDirectory _folder = new();

    public void Dispose() => _folder.Dispose();

    private string App(string configProperties)
    {
        Directory.CreateDirectory(_folder.Path);
        File.WriteAllText(Path.Combine(_folder.Path, "App.runtimeconfig.json"), $$"""{ "runtimeOptions": { "configProperties": { {{configProperties}} } } }""");
        return Path.Combine(_folder.Path, "App.dll");
    }

    [Fact]
    public void Tiering_is_the_apps_own_and_each_override_says_what_the_app_ships()
    {
        var (environment, overridden) = CountedStartSettings.For(App("\"System.Runtime.TieredCompilation\": false, \"System.GC.Server\": true"));

        environment["DOTNET_TieredCompilation"].Should().Be("0", "the app's project turned tiering off");
        environment.Should().NotContainKey("DOTNET_gcServer", "the meter's deterministic environment sets it for every counted process");
        overridden.Should().Contain(line => line.StartsWith("DOTNET_gcServer=0 (ships System.GC.Server=true)", StringComparison.Ordinal));
        overridden.Should().NotContain(line => line.StartsWith("DOTNET_TieredCompilation", StringComparison.Ordinal));
    }

    [Fact]
    public void Without_a_runtimeconfig_the_runtimes_defaults_are_what_ships()
    {
        var (environment, overridden) = CountedStartSettings.For(null);

        environment["DOTNET_TieredCompilation"].Should().Be("1");
        overridden.Should().NotContain(line => line.StartsWith("DOTNET_gcServer", StringComparison.Ordinal), "workstation GC is the default");
        overridden.Should().Contain(line => line.StartsWith("DOTNET_gcConcurrent=0 (ships System.GC.Concurrent=true)", StringComparison.Ordinal));
    }
}
