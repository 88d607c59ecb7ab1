using System.Net.Sockets;
using System.Text;
using PerfBudgets.Server.Tests.Postgres;
using PerfBudgets.Server.Tokens;

namespace PerfBudgets.Server.Tests.Tokens;

/// <summary>A write token revoked while an upload's body is arriving stores nothing: revocation is immediate.</summary>
public abstract class RevokedInFlightTests
{
    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    [Fact]
    public async Task An_upload_authorized_before_its_token_was_revoked_and_sent_after_is_403_and_stores_nothing()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var body = Encoding.UTF8.GetBytes(RunningResultsServer.UploadBody("a1").ToJsonString());
        using var client = new TcpClient();
        await client.ConnectAsync(System.Net.IPAddress.Loopback, server.Server.Address.Port, TestContext.Current.CancellationToken);
        var stream = client.GetStream();
        var head = $"POST /api/projects/{RunningResultsServer.Project}/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
            $"Authorization: Bearer {server.Token}\r\nContent-Type: application/json\r\nContent-Length: {body.Length}\r\nExpect: 100-continue\r\n\r\n";
        await stream.WriteAsync(Encoding.ASCII.GetBytes(head), TestContext.Current.CancellationToken);

        // Kestrel answers 100 Continue when the endpoint first reads the body, which is after it checked the token: the
        // upload is in flight with a token that was good.
        var reader = new StreamReader(stream, Encoding.ASCII);
        (await reader.ReadLineAsync(TestContext.Current.CancellationToken)).Should().Be("HTTP/1.1 100 Continue");
        (await reader.ReadLineAsync(TestContext.Current.CancellationToken)).Should().BeEmpty();
        await TokenAdministration.RevokeWriteTokenAsync(server.Server.Storage, RunningResultsServer.Project, TestContext.Current.CancellationToken);
        await stream.WriteAsync(body, TestContext.Current.CancellationToken);
        var answer = await reader.ReadToEndAsync(TestContext.Current.CancellationToken);

        answer.Should().StartWith("HTTP/1.1 403").And.Contain("write token was revoked or replaced while the upload arrived");
        (await server.CountAsync()).Should().Be((0, 0));
    }

    [Fact]
    public async Task An_upload_in_flight_with_the_current_token_lands()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);

        using var answer = await server.UploadAsync(RunningResultsServer.UploadBody("a1").ToJsonString());

        answer.StatusCode.Should().Be(System.Net.HttpStatusCode.Created);
        (await server.CountAsync()).Should().Be((1, 3));
    }
}

/// <summary>Revocation in flight on SQLite.</summary>
public sealed class RevokedInFlightTestsOnSqlite : RevokedInFlightTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>Revocation in flight on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class RevokedInFlightTestsOnPostgres(PostgresCluster cluster) : RevokedInFlightTests
{
    protected override PostgresCluster? Postgres => cluster;
}
