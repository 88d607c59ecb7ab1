using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Correctness.Harness;

/// <summary>
/// The suites measure the app as it ships (appsettings.json, the Production environment): every setting they pass
/// that differs has a reason listed in <see cref="AppProcess.Reasons"/>, and an unlisted one fails the start.
/// </summary>
public sealed class ShippedSettingsTests
{
    public static TheoryData<bool> StartModes => new() { false, true };

    [Theory]
    [MemberData(nameof(StartModes))]
    public void The_server_process_differs_from_what_ships_only_where_a_reason_is_listed(bool withEchoService)
    {
        var changed = AppProcess.ChangedSettings(AppProcess.StartSettings(withEchoService), environment: null);

        changed.Should().OnlyContain(c => AppProcess.Reasons.ContainsKey(c.Key) && c.Reason.Length > 0);
        changed.Select(c => c.Key).Should().Equal(withEchoService ? ["Urls", "EchoServer:Enabled", "EchoServer:Port"] : ["Urls"]);
        AppProcess.StartSettings(withEchoService).Should().NotContain(s => s.Key.StartsWith("Logging", StringComparison.OrdinalIgnoreCase),
            "the app logs as it ships: a log line per request in production is a cost the gate must see");
    }

    [Fact]
    public void A_setting_that_differs_from_what_ships_without_a_reason_fails_naming_it_and_the_shipped_value()
    {
        var logging = () => AppProcess.ChangedSettings([new("Logging:LogLevel:Default", "Warning")], environment: null);
        logging.Should().Throw<InvalidOperationException>().WithMessage("*Logging:LogLevel:Default=Warning (ships Information)*AppProcess.Reasons*");

        var runtime = () => AppProcess.ChangedSettings([], new Dictionary<string, string> { ["DOTNET_gcServer"] = "1" });
        runtime.Should().Throw<InvalidOperationException>().WithMessage("*DOTNET_gcServer=1 (ships unset)*");
    }

    [Fact]
    public void A_setting_passed_with_its_shipped_value_needs_no_reason()
    {
        AppProcess.ChangedSettings([new("EchoServer:Address", "127.0.0.1"), new("Logging:LogLevel:Default", "Information")], environment: null)
            .Should().BeEmpty();
    }

    [Fact]
    public void The_in_process_app_runs_in_Production_with_its_shipped_log_levels()
    {
        using var factory = AppFactory.Create();
        factory.Services.GetRequiredService<IHostEnvironment>().EnvironmentName.Should().Be(AppProcess.ShippedEnvironment);
        var loggers = factory.Services.GetRequiredService<ILoggerFactory>();
        loggers.CreateLogger("SystemUnderTest.Json").IsEnabled(LogLevel.Information).Should().BeTrue("appsettings.json ships Default = Information");
        loggers.CreateLogger("Microsoft.AspNetCore.Hosting.Diagnostics").IsEnabled(LogLevel.Information).Should().BeFalse("appsettings.json ships Microsoft.AspNetCore = Warning");
    }
}
