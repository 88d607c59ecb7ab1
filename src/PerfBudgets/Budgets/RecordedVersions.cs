namespace PerfBudgets.Budgets;

/// <summary>The versions a counted budget was recorded with: counts compare only between runs on the same ones.</summary>
/// <param name="Runtime">The .NET runtime, e.g. <c>10.0.12</c>.</param>
/// <param name="Valgrind">Valgrind, e.g. <c>3.19.0</c>.</param>
public sealed record RecordedVersions(string Runtime, string Valgrind);
