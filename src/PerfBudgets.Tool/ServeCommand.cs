using System.CommandLine;
using PerfBudgets.Server;
using PerfBudgets.Server.Tokens;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets serve [--database FILE] [--url URL]</c>: the results server, SQLite in the current folder on
/// <c>http://127.0.0.1:5080</c> by default. <c>--add-project NAME</c> creates a project, prints its write token once
/// (the server keeps only its hash) and exits.
/// </summary>
internal static class ServeCommand
{
    public static Command Create()
    {
        var database = new Option<string>("--database") { Description = "The SQLite file (created and migrated on start).", DefaultValueFactory = _ => "perfbudgets.db" };
        var url = new Option<string>("--url") { Description = "Where to listen.", DefaultValueFactory = _ => ResultsServerOptions.DefaultUrl };
        var maxUpload = new Option<long>("--max-upload-bytes") { Description = "The largest upload accepted, in bytes.", DefaultValueFactory = _ => new ResultsServerOptions().MaxUploadBytes };
        var readTokenRequired = new Option<bool>("--read-token-required") { Description = "Reads (baseline, budgets, series, dashboard) need the project's token too; by default reading is public." };
        var addProject = new Option<string?>("--add-project") { Description = "Create this project, print its write token and exit." };
        var command = new Command("serve", "Serves the results server: uploaded runs and the baseline of any commit.") { database, url, maxUpload, readTokenRequired, addProject };
        command.SetAction((parseResult, cancellationToken) => CommandAction.RunAsync(async () =>
        {
            var options = new ResultsServerOptions
            {
                DatabasePath = parseResult.GetValue(database)!,
                Url = parseResult.GetValue(url)!,
                MaxUploadBytes = parseResult.GetValue(maxUpload) is > 0 and var max ? max : throw new ToolInputException("--max-upload-bytes must be positive."),
                ReadTokenRequired = parseResult.GetValue(readTokenRequired),
            };
            await using var server = ResultsServer.Create(options);
            if (parseResult.GetValue(addProject) is { } project)
            {
                var token = ProjectToken.NewToken();
                await server.Storage.CreateProjectAsync(project, ProjectToken.Hash(token), cancellationToken);
                Console.WriteLine(token);
                return 0;
            }

            Console.Error.WriteLine($"perfbudgets serve: {Path.GetFullPath(options.DatabasePath)} on {options.Url}");
            await server.RunAsync();
            return 0;
        }));
        return command;
    }
}
