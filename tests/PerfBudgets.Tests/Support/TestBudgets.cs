using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Tests.Support;

/// <summary>
/// A budget file kept as data (<c>TestVectors/budgets/NAME.json</c>), resolved for one profile, and a temporary results
/// folder of its own that gates over it write into; the folder is deleted on <see cref="Dispose"/>. A test class holds
/// one per test (xunit makes a new instance for each), so no test reads another's results.
/// </summary>
internal sealed class TestBudgets : IDisposable
{
    private readonly TemporaryDirectory _folder = new();

    /// <summary>Reads <c>TestVectors/budgets/<paramref name="name"/>.json</c> for <paramref name="profile"/>.</summary>
    /// <param name="name">The file's name without its extension.</param>
    /// <param name="profile">The profile whose limits the book resolves.</param>
    /// <param name="edit">Changes the file's text before it is parsed (e.g. to fill in this runtime's version).</param>
    public TestBudgets(string name, string profile = "ci", Func<string, string>? edit = null)
    {
        SourcePath = PathOf(name);
        var text = File.ReadAllText(SourcePath);
        Text = edit is null ? text : edit(text);
        Book = BudgetBook.Parse(Text, SourcePath, profile);
    }

    /// <summary>The budget file the book was read from.</summary>
    public string SourcePath { get; }

    /// <summary>The budget file's text, as parsed.</summary>
    public string Text { get; }

    /// <summary>The budgets and parameters of the file for the profile.</summary>
    public BudgetBook Book { get; }

    /// <summary>The temporary folder; created by the first gate that writes, or by <see cref="WriteBudgetFile"/>.</summary>
    public string Folder => _folder.Path;

    /// <summary>The full path of a budget file kept as data.</summary>
    public static string PathOf(string name) => Path.Combine(AppContext.BaseDirectory, "TestVectors", "budgets", name + ".json");

    /// <summary>The budgets and parameters of a budget file kept as data, for a test that needs no gate.</summary>
    public static BudgetBook Read(string name, string profile = "ci") => BudgetBook.Load(PathOf(name), profile);

    /// <summary>
    /// A result store in <see cref="Folder"/>, or in a folder of that name under it (two runs compared with each other
    /// keep their results apart).
    /// </summary>
    public ResultStore Store(string? subfolder = null) => new(subfolder is null ? Folder : Path.Combine(Folder, subfolder));

    /// <summary>
    /// A gate over <see cref="Book"/> that writes into <see cref="Store"/>, with <paramref name="options"/> (by default
    /// none set); it accepts a Debug build unless told otherwise.
    /// </summary>
    public BudgetGate Gate(string? subfolder = null, bool requireOptimizedBuild = false, BudgetGateOptions? options = null) =>
        new(Book, Store(subfolder), (options ?? new BudgetGateOptions()) with { RequireOptimizedBuild = requireOptimizedBuild });

    /// <summary>Writes <paramref name="text"/> (by default the file's own) to <c>budgets.json</c> in <see cref="Folder"/> and returns its path.</summary>
    public string WriteBudgetFile(string? text = null)
    {
        Directory.CreateDirectory(Folder);
        var path = Path.Combine(Folder, "budgets.json");
        File.WriteAllText(path, text ?? Text);
        return path;
    }

    /// <inheritdoc />
    public void Dispose() => _folder.Dispose();
}
