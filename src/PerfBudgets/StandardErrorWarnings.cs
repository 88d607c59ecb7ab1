namespace PerfBudgets;

/// <summary>The default <see cref="IBudgetWarningSink"/>: writes <c>warning: …</c> to standard error.</summary>
internal sealed class StandardErrorWarnings : IBudgetWarningSink
{
    private StandardErrorWarnings() { }

    /// <summary>The one instance.</summary>
    public static StandardErrorWarnings Instance { get; } = new();

    /// <inheritdoc />
    public void Warn(string line) => Console.Error.WriteLine($"warning: {line}");
}
