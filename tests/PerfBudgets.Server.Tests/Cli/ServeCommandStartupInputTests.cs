using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using PerfBudgets.Server.Cli;

namespace PerfBudgets.Server.Tests.Cli;

/// <summary>
/// Each bad setting or start-up input is exit code 1 and one line naming the setting and what to do, never a stack
/// trace: the inputs a hostile probe of the packed server tried, each of which printed one before.
/// </summary>
public sealed class ServeCommandStartupInputTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-startup-").FullName;

    public static TheoryData<string, string[], string> Inputs => new()
    {
        { "a PEM certificate without its key", ["--url", "https://127.0.0.1:0", "--certificate", "{cert.pem}"], "give --certificate-key FILE" },
        { "a URL that is no URL", ["--url", "not a url"], "--url) 'not a url' is not an http:// or https:// URL" },
        { "an ftp URL", ["--url", "ftp://127.0.0.1:21"], "--url) 'ftp://127.0.0.1:21' is not an http:// or https:// URL" },
        { "a database in a missing folder", ["--database", "{missing/results.db}", "--add-project", "gate"], "does not exist; create it" },
        { "a database that is a folder", ["--database", "{folder}", "--add-project", "gate"], "is a folder; name a file in it" },
        { "a database that is not SQLite", ["--database", "{not-sqlite.db}", "--add-project", "gate"], "is not a SQLite database" },
        { "an unreachable PostgreSQL", ["--postgres", "Host=127.0.0.1;Port=1;Database=perf;Username=perf;Timeout=2", "--add-project", "gate"], "--postgres: PostgreSQL 127.0.0.1:1/perf could not be opened" },
        { "a budgets file that is not JSON", ["--budgets", "{budgets.json}", "--add-project", "gate"], "--budgets '" },
        { "a retention of a billion days", ["--retain-days", "1000000000", "--prune"], "RetainDays (--retain-days) is 1000000000; it takes 1 to 36,500" },
        { "a negative upload limit", ["--max-upload-bytes", "-1"], "--max-upload-bytes must be positive" },
        { "a stored count limit of nothing", ["--max-stored-count-bytes", "0"], "MaxStoredCountBytes must be positive (--max-stored-count-bytes)" },
        { "a stored count limit past memory", ["--max-stored-count-bytes", "4294967296"], "MaxStoredCountBytes (--max-stored-count-bytes) is 4294967296; it takes at most 1073741824" },
        { "no stored counts kept", ["--stored-counts-per-project", "0"], "StoredCountsPerProject must be positive (--stored-counts-per-project)" },
        { "fewer bytes kept than one stored count", ["--max-stored-count-bytes", "1000", "--stored-count-bytes-per-project", "999"], "StoredCountBytesPerProject (--stored-count-bytes-per-project) is 999; it takes at least MaxStoredCountBytes (--max-stored-count-bytes, 1000)" },
    };

    [Theory]
    [MemberData(nameof(Inputs))]
    public async Task A_bad_start_up_input_is_exit_code_1_and_one_line_naming_the_setting(string what, string[] arguments, string said)
    {
        var args = arguments.Select(Placed).ToList();
        if (!args.Contains("--database"))
        {
            args.AddRange(["--database", Path.Combine(_folder, "results.db")]);
        }

        var error = Console.Error;
        var output = Console.Out;
        try
        {
            using var printed = new StringWriter();
            Console.SetError(printed);
            Console.SetOut(TextWriter.Null);
            var exitCode = await ServeCommand.Create().Parse(args).InvokeAsync(cancellationToken: TestContext.Current.CancellationToken);

            exitCode.Should().Be(1, what);
            // Only the refusal, but for the line a server that got as far as starting prints first.
            var lines = printed.ToString().TrimEnd().Split('\n').Where(l => !l.StartsWith("perfbudgets-server: ", StringComparison.Ordinal) || !l.Contains(" on ", StringComparison.Ordinal)).ToList();
            lines.Should().ContainSingle(what).Which.Should().Contain(said, what);
        }
        finally
        {
            Console.SetError(error);
            Console.SetOut(output);
        }
    }

    // A {name} in an argument is a file of that kind made in the test's folder.
    private string Placed(string argument)
    {
        if (!argument.StartsWith('{'))
        {
            return argument;
        }

        var path = Path.Combine(_folder, argument.Trim('{', '}'));
        switch (Path.GetFileName(path))
        {
            case "cert.pem":
                using (var key = RSA.Create(2048))
                {
                    var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
                    using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
                    File.WriteAllText(path, certificate.ExportCertificatePem());
                }

                break;
            case "folder":
                Directory.CreateDirectory(path);
                break;
            case "not-sqlite.db":
                File.WriteAllText(path, "this is not a SQLite database, but it is long enough to be read as one's header");
                break;
            case "budgets.json":
                File.WriteAllText(path, "{ not json");
                break;
        }

        return path;
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
