using System.Text.RegularExpressions;

namespace PerfGate.Build.Tests.Docs;

/// <summary>
/// Every C# snippet of a package README (and of the docs/package/ pages it leads to) is code that compiles and runs: its lines appear, in order and together, in a
/// file of the adopters' examples that Test.Package builds from the packed packages (samples/, build/package-*).
/// A snippet that drifts from the API, or was never compiled, fails here by README and first line.
/// </summary>
public sealed partial class PackageReadmeSnippetTests
{
    private static readonly string Root = RepositoryRoot.Path;

    // The packages' READMEs and the pages their front door leads to (docs/package/).
    public static TheoryData<string> Readmes() => new(Directory.GetFiles(Path.Combine(Root, "src"), "README.md", SearchOption.AllDirectories)
        .Concat(Directory.GetFiles(Path.Combine(Root, "docs", "package"), "*.md"))
        .Select(f => Path.GetRelativePath(Root, f)).Where(f => !f.Contains("/bin/", StringComparison.Ordinal)).Order(StringComparer.Ordinal));

    [Theory]
    [MemberData(nameof(Readmes))]
    public void Every_CSharp_snippet_is_in_a_compiled_example(string readme)
    {
        var examples = Directory.GetFiles(Path.Combine(Root, "samples"), "*.cs", SearchOption.AllDirectories)
            .Concat(Directory.GetDirectories(Path.Combine(Root, "build"), "package-*").SelectMany(d => Directory.GetFiles(d, "*.cs")))
            .Where(f => !f.Contains("/obj/", StringComparison.Ordinal) && !f.Contains("/bin/", StringComparison.Ordinal))
            .Select(f => Normalize(File.ReadAllText(f)))
            .ToList();

        var missing = Snippet().Matches(File.ReadAllText(Path.Combine(Root, readme)))
            .Select(m => Normalize(m.Groups[1].Value))
            .Where(snippet => !examples.Any(e => e.Contains(snippet, StringComparison.Ordinal)))
            .Select(snippet => snippet.Split('\n')[0])
            .ToList();

        missing.Should().BeEmpty($"every ```csharp block of {readme} must be compiled code from samples/ or build/package-*/ (these are not)");
    }

    // Lines trimmed, blank lines dropped: a snippet may be indented differently from its source.
    private static string Normalize(string code) =>
        string.Join('\n', code.ReplaceLineEndings("\n").Split('\n').Select(l => l.Trim()).Where(l => l.Length > 0)) + "\n";

    [GeneratedRegex("```csharp\\n(.*?)```", RegexOptions.Singleline)]
    private static partial Regex Snippet();
}
