namespace PerfBudgets.Server.Upload;

/// <summary>One figure of an uploaded run, the columns of <c>results.json</c> the server keeps in its own rows.</summary>
internal sealed record UploadedResult(string Budget, string Kind, double Measured, double? Limit, string Unit, string Verdict);
