namespace PerfBudgets.Server.Storage;

/// <summary>One project on the server, for the dashboard's index: how many runs it holds and when the last arrived.</summary>
/// <param name="Name">The project's name.</param>
/// <param name="Runs">How many runs were uploaded to it.</param>
/// <param name="LastUploadUtc">When the newest run was uploaded; null for a project without runs.</param>
internal sealed record ProjectSummary(string Name, long Runs, DateTimeOffset? LastUploadUtc);
