using System.IO.Compression;
using System.Net;
using System.Text;

namespace PerfBudgets.Server.Tests.Counts;

/// <summary>
/// <c>perfbudgets counts push</c> and <c>pull</c> against a running server: a store's entries go up once and come
/// down byte for byte into another store, and an archive of another shape on the server is refused and never unpacked.
/// </summary>
public sealed class CountsCommandTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-counts-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public async Task Push_sends_what_the_server_lacks_and_pull_brings_it_back_byte_for_byte()
    {
        await using var server = await RunningResultsServer.StartAsync();
        var store = Path.Combine(_folder, "main");
        var keys = new[] { Key('1'), Key('2') };
        foreach (var key in keys)
        {
            Entry(store, key);
        }

        Directory.CreateDirectory(Path.Combine(store, ".incoming-0"));
        Directory.CreateDirectory(Path.Combine(store, "no-manifest"));
        var token = await TokenFileAsync(server);

        var first = await CountsAsync(server, "push", store, "--token-file", token);
        var second = await CountsAsync(server, "push", store, "--token-file", token);
        var pulled = Path.Combine(_folder, "pull-request");
        var pull = await CountsAsync(server, "pull", pulled);
        var again = await CountsAsync(server, "pull", pulled);

        first.ExitCode.Should().Be(0, first.Error);
        first.Output.Should().Contain("sent 2 of the 2 counted runs");
        first.Output.Should().Contain("the server held the other 0, 0 of them marked used");
        second.Output.Should().Contain("sent 0 of the 2 counted runs", "the server holds both")
            .And.Contain("the server held the other 2, 2 of them marked used", "main reuses them from its own store, and the server keeps them for pull requests");
        pull.ExitCode.Should().Be(0, pull.Error);
        pull.Output.Should().Contain("fetched 2 counted runs");
        again.Output.Should().Contain("fetched 0 counted runs").And.Contain("2 of the server's 2 newest were here already");
        foreach (var key in keys)
        {
            var from = Path.Combine(store, key[..32]);
            var to = Path.Combine(pulled, key[..32]);
            Directory.GetFiles(to).Select(Path.GetFileName).Should().BeEquivalentTo(Directory.GetFiles(from).Select(Path.GetFileName));
            foreach (var file in Directory.GetFiles(from))
            {
                File.ReadAllBytes(Path.Combine(to, Path.GetFileName(file))).Should().Equal(File.ReadAllBytes(file));
            }
        }

        Directory.GetDirectories(pulled).Should().HaveCount(2, "nothing half-written is left behind");
    }

    [Fact]
    public async Task Push_and_pull_survive_a_lost_answer_and_store_each_count_once()
    {
        await using var server = await RunningResultsServer.StartAsync();
        var store = Path.Combine(_folder, "main");
        Entry(store, Key('1'));
        var token = await TokenFileAsync(server);

        await using (var proxy = new LosingFirstAnswerProxy(server.Server.Address))
        {
            var push = await PerfBudgetsTool.RunAsync("counts", "push", "--server", proxy.Address.ToString(), "--project", RunningResultsServer.Project,
                "--store", store, "--token-file", token);
            push.ExitCode.Should().Be(0, push.Error);
            proxy.Connections.Should().BeGreaterThan(1, "the first answer was lost and the request sent again");
        }

        await using (var proxy = new LosingFirstAnswerProxy(server.Server.Address))
        {
            var pull = await PerfBudgetsTool.RunAsync("counts", "pull", "--server", proxy.Address.ToString(), "--project", RunningResultsServer.Project,
                "--store", Path.Combine(_folder, "pull-request"));
            pull.ExitCode.Should().Be(0, pull.Error);
            pull.Output.Should().Contain("fetched 1 counted runs");
        }

        (await StoredCountsEndpointsTests.ListAsync(server)).Should().ContainSingle();
    }

    [Fact]
    public async Task Pull_fetches_only_the_newest_it_is_asked_for()
    {
        await using var server = await RunningResultsServer.StartAsync();
        var store = Path.Combine(_folder, "main");
        Entry(store, Key('1'));
        Entry(store, Key('2'));
        (await CountsAsync(server, "push", store, "--token-file", await TokenFileAsync(server))).ExitCode.Should().Be(0);

        var pulled = Path.Combine(_folder, "pull-request");
        var pull = await CountsAsync(server, "pull", pulled, "--newest", "1");

        pull.Output.Should().Contain("fetched 1 counted runs");
        Directory.GetDirectories(pulled).Should().ContainSingle();
    }

    [Theory]
    [InlineData("a file outside its folder")]
    [InlineData("a manifest naming another key")]
    [InlineData("no zip at all")]
    public async Task Pull_refuses_an_archive_of_another_shape_and_unpacks_nothing_of_it(string shape)
    {
        await using var server = await RunningResultsServer.StartAsync();
        var key = Key('3');
        var archive = shape switch
        {
            "a file outside its folder" => ZipOf(("manifest.json", Manifest(key)), ("../escaped.txt", "out")),
            "a manifest naming another key" => ZipOf(("manifest.json", Manifest(Key('4'))), ("stdout.txt", "ok")),
            _ => Encoding.UTF8.GetBytes("not a zip"),
        };
        (await StoredCountsEndpointsTests.PutAsync(server, key, archive)).StatusCode.Should().Be(HttpStatusCode.Created);

        var pulled = Path.Combine(_folder, "store");
        var pull = await CountsAsync(server, "pull", pulled);

        pull.ExitCode.Should().Be(0, "one entry of another shape is counted again, not a failed pull");
        pull.Error.Should().Contain("is not a store's entry").And.Contain("it was not unpacked");
        pull.Output.Should().Contain("fetched 0 counted runs").And.Contain("1 refused");
        Directory.GetFileSystemEntries(pulled).Should().BeEmpty();
        File.Exists(Path.Combine(_folder, "escaped.txt")).Should().BeFalse();
    }

    [Fact]
    public async Task Push_without_the_write_token_is_refused_naming_why()
    {
        await using var server = await RunningResultsServer.StartAsync();
        var store = Path.Combine(_folder, "main");
        Entry(store, Key('1'));
        var wrong = Path.Combine(_folder, "wrong-token");
        await File.WriteAllTextAsync(wrong, "not-the-token", TestContext.Current.CancellationToken);

        var push = await CountsAsync(server, "push", store, "--token-file", wrong);

        push.ExitCode.Should().Be(PerfBudgetsTool.BadInput);
        push.Error.Should().Contain("403").And.Contain("token");
        (await StoredCountsEndpointsTests.ListAsync(server)).Should().BeEmpty();
    }

    [Fact]
    public async Task Pull_from_a_server_that_cannot_be_reached_warns_and_leaves_the_gate_to_count()
    {
        var closed = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        closed.Start();
        var port = ((IPEndPoint)closed.LocalEndpoint).Port;
        closed.Stop();

        var pull = await PerfBudgetsTool.RunAsync("counts", "pull", "--server", $"http://127.0.0.1:{port}", "--project", RunningResultsServer.Project,
            "--store", Path.Combine(_folder, "store"));

        pull.ExitCode.Should().Be(0, "the store is a cache: a job whose server is down counts, it does not fail");
        pull.Error.Should().Contain("warning").And.Contain("cannot be reached").And.Contain("the gate counts what the store lacks");
        pull.Output.Should().Contain("fetched 0 counted runs").And.Contain("the server could not be reached");
    }

    [Fact]
    public async Task Pull_of_a_project_the_server_does_not_have_fails_naming_it()
    {
        await using var server = await RunningResultsServer.StartAsync();

        var pull = await PerfBudgetsTool.RunAsync("counts", "pull", "--server", server.Server.Address.ToString(), "--project", "nobody",
            "--store", Path.Combine(_folder, "store"));

        pull.ExitCode.Should().Be(PerfBudgetsTool.BadInput, "a wrong project is a mistake in the job's settings");
        pull.Error.Should().Contain("404").And.Contain("nobody");
    }

    private static string Key(char digit) => new(digit, 64);

    private static string Manifest(string key) => $$"""{ "Format": "test", "Key": "{{key}}" }""";

    // An entry as the gate's store writes one: its folder, its manifest, a dump and its standard output.
    private static void Entry(string store, string key)
    {
        var folder = Path.Combine(store, key[..32]);
        Directory.CreateDirectory(folder);
        File.WriteAllText(Path.Combine(folder, "manifest.json"), Manifest(key));
        File.WriteAllText(Path.Combine(folder, "stdout.txt"), $"workload of {key[..8]} check ok");
        var dump = new byte[50_000];
        new Random(key[0]).NextBytes(dump);
        File.WriteAllBytes(Path.Combine(folder, "callgrind.out.100.1.gz"), dump);
    }

    private static byte[] ZipOf(params (string Name, string Text)[] files)
    {
        using var buffer = new MemoryStream();
        using (var zip = new ZipArchive(buffer, ZipArchiveMode.Create, leaveOpen: true))
        {
            foreach (var (name, text) in files)
            {
                using var writer = new StreamWriter(zip.CreateEntry(name).Open());
                writer.Write(text);
            }
        }

        return buffer.ToArray();
    }

    private async Task<string> TokenFileAsync(RunningResultsServer server)
    {
        var path = Path.Combine(_folder, "token");
        await File.WriteAllTextAsync(path, server.Token, TestContext.Current.CancellationToken);
        return path;
    }

    private static Task<(int ExitCode, string Output, string Error)> CountsAsync(RunningResultsServer server, string verb, string store, params string[] more) =>
        PerfBudgetsTool.RunAsync(["counts", verb, "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project, "--store", store, .. more]);
}
