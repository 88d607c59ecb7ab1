using System.Net;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Logging;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// A 500 the server still gives (here: a table dropped under it) is answered with a problem body and logged with its
/// cause, never an empty body that nothing records.
/// </summary>
public sealed class UnhandledErrorsTests
{
    [Fact]
    public async Task A_500_is_a_problem_body_and_its_cause_is_logged()
    {
        var logs = new CollectedLogs();
        await using var server = await RunningResultsServer.StartAsync(logs: logs);
        (await server.UploadAsync(RunningResultsServer.UploadBody("a1").ToJsonString())).EnsureSuccessStatusCode();
        await using (var connection = new SqliteConnection($"Data Source={server.DatabasePath};Pooling=False"))
        {
            await connection.OpenAsync(TestContext.Current.CancellationToken);
            await using var drop = connection.CreateCommand();
            drop.CommandText = "PRAGMA foreign_keys = OFF; DROP TABLE results;";
            await drop.ExecuteNonQueryAsync(TestContext.Current.CancellationToken);
        }

        using var response = await server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/budgets", TestContext.Current.CancellationToken);

        response.StatusCode.Should().Be(HttpStatusCode.InternalServerError);
        response.Content.Headers.ContentType!.MediaType.Should().Be("application/problem+json");
        logs.Entries.Should().Contain(e => e.Category == UnhandledErrors.Category && e.Level == LogLevel.Error
            && e.Message.Contains("/api/projects/gate/budgets", StringComparison.Ordinal)
            && e.Message.Contains("no such table", StringComparison.Ordinal) && e.Exception != null);
    }
}
