using System.Text.RegularExpressions;

namespace PerfGate.Build.Tests.Docs;

// The packages' public surface is what an adopter uses, and an adopter learns it from the packages' READMEs and
// docs/package/ (api.md lists every public type): a public type that no page names is either undocumented or should not
// be public.
public sealed partial class PublicTypesTests
{
    private static readonly string[] Packages = ["PerfBudgets", "PerfBudgets.Diagnostics", "PerfBudgets.Reporting.Html"];

    public static TheoryData<string> PublicTypes() => new(Packages.SelectMany(TypesOf).Order(StringComparer.Ordinal));

    [Theory]
    [MemberData(nameof(PublicTypes))]
    public void Every_public_type_is_named_on_a_page_an_adopter_reads(string type)
    {
        var name = type.Split('.')[^1];

        Regex.IsMatch(Pages.Value, $@"\b{Regex.Escape(name)}\b").Should().BeTrue(
            $"{type} is public, so the packages' READMEs or docs/package/ (api.md lists every public type) must name it; or make it internal");
    }

    [Fact]
    public void The_baselines_declare_types() =>
        PublicTypes().Should().HaveCountGreaterThan(50, "each package's PublicAPI files list its types, one per line");

    private static readonly Lazy<string> Pages = new(() => string.Join('\n',
        Directory.GetFiles(Path.Combine(RepositoryRoot.Path, "src"), "README.md", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Concat(Directory.GetFiles(Path.Combine(RepositoryRoot.Path, "docs", "package"), "*.md"))
            .Select(File.ReadAllText)));

    // A type's line in a PublicAPI file is its full name alone (after any modifiers); members add a signature or "->".
    private static IEnumerable<string> TypesOf(string package) =>
        new[] { "PublicAPI.Shipped.txt", "PublicAPI.Unshipped.txt" }
            .Select(file => Path.Combine(RepositoryRoot.Path, "src", package, file))
            .SelectMany(File.ReadLines)
            .Select(line => TypeLine().Match(line.Trim()))
            .Where(m => m.Success)
            .Select(m => m.Groups[1].Value)
            .Distinct(StringComparer.Ordinal);

    [GeneratedRegex(@"^(?:(?:abstract|static|sealed|readonly|virtual|override) )*([A-Za-z_][\w.]*)$")]
    private static partial Regex TypeLine();
}
