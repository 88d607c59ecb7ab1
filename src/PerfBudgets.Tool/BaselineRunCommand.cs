using System.CommandLine;
using PerfBudgets.Tool.Baseline;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets baseline-run --suite PROJECT... --out FILE [--ref BRANCH] [--solution FILE] [--configuration C]</c>:
/// the A side of an A/B run (<see cref="BaselineRun"/>): the suites on <c>git merge-base HEAD BRANCH</c> in a temporary
/// worktree, their <c>results.json</c> written to FILE, to be the baseline (<c>PERF_BASELINE</c>) of the same suites on
/// HEAD. Run in the repository; the Cake target Baseline runs it, then the B side.
/// </summary>
internal static class BaselineRunCommand
{
    public static Command Create()
    {
        var branch = new Option<string>("--ref") { Description = "The branch to take the merge base with.", DefaultValueFactory = _ => "main" };
        var solution = new Option<string?>("--solution") { Description = "The solution to build on the merge base (default: the one *.slnx or *.sln in the repository)." };
        var suites = new Option<string[]>("--suite") { Description = "A test project to run, relative to the repository (repeat for each).", Required = true, Arity = ArgumentArity.OneOrMore };
        var configuration = new Option<string>("--configuration") { Description = "The build configuration.", DefaultValueFactory = _ => "Release" };
        var output = new Option<string>("--out") { Description = "Where the merge base's results.json is written.", Required = true };
        var command = new Command("baseline-run", "Runs test projects on the merge base of HEAD and a branch in a temporary git worktree and keeps their results.json.")
        {
            branch, solution, suites, configuration, output,
        };
        command.SetAction(parseResult => CommandAction.Run(() =>
        {
            var repository = Directory.GetCurrentDirectory();
            var file = parseResult.GetValue(solution)
                ?? Directory.GetFiles(repository, "*.slnx").Concat(Directory.GetFiles(repository, "*.sln")).Select(Path.GetFileName).FirstOrDefault()
                ?? throw new ToolInputException($"No *.slnx or *.sln in {repository}: give --solution.");
            var mergeBase = new BaselineRun(repository, parseResult.GetValue(configuration)!)
                .Run(parseResult.GetValue(branch)!, file!, parseResult.GetValue(suites)!, Path.GetFullPath(parseResult.GetValue(output)!));
            Console.WriteLine($"Baseline results of {mergeBase[..10]}: {parseResult.GetValue(output)}");
            return 0;
        }));
        return command;
    }
}
