using PerfBudgets.Server.Cli;

namespace PerfBudgets.Server.Tests.Cli;

/// <summary>An <c>https://</c> URL without a certificate Kestrel can use is one line and exit code 1, not a stack trace.</summary>
public sealed class ServeCommandHttpsTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-https-").FullName;

    [Fact]
    public async Task A_certificate_file_that_is_no_certificate_is_one_line_naming_the_options()
    {
        var certificate = Path.Combine(_folder, "server.crt");
        await File.WriteAllTextAsync(certificate, "not a certificate", TestContext.Current.CancellationToken);
        var error = Console.Error;
        try
        {
            using var printed = new StringWriter();
            Console.SetError(printed);
            var exitCode = await ServeCommand.Create()
                .Parse(["--database", Path.Combine(_folder, "results.db"), "--url", "https://127.0.0.1:0", "--certificate", certificate])
                .InvokeAsync(cancellationToken: TestContext.Current.CancellationToken);

            exitCode.Should().Be(1);
            // The start line, then the refusal on one line.
            var lines = printed.ToString().TrimEnd().Split('\n');
            lines.Should().HaveCount(2).And.NotContain(line => line.Contains("   at ", StringComparison.Ordinal));
            lines[1].Should().Contain("https://127.0.0.1:0 is https, and Kestrel has no certificate it can use: give --certificate FILE");
        }
        finally
        {
            Console.SetError(error);
        }
    }

    [Fact]
    public async Task Starting_on_https_without_a_certificate_is_the_same_refusal()
    {
        await using var server = ResultsServer.Create(new ResultsServerOptions
        {
            DatabasePath = Path.Combine(_folder, "results.db"),
            Url = "https://127.0.0.1:0",
        });

        var start = () => server.StartAsync(TestContext.Current.CancellationToken);

        // A machine with an ASP.NET Core development certificate has one Kestrel can use, and starts.
        try
        {
            await start();
        }
        catch (ServerInputException e)
        {
            e.Message.Should().Contain("give --certificate FILE");
            return;
        }

        Assert.Skip("This machine has a development certificate: the server started on https.");
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
