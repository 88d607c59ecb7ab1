using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using PerfBudgets;
using Xunit;

namespace PackageConsumer;

/// <summary>
/// The core package holds what an adopter runs: the markdown-table generator and the Locust reader of the repository
/// that builds it belong to its tool. Read from the lib/ assembly's metadata, as restored here (nothing more is loaded).
/// </summary>
public sealed class PackageContentsTests
{
    [Fact]
    public void Core_assembly_holds_no_markdown_table_generator_and_no_Locust_reader()
    {
        using var stream = File.OpenRead(typeof(BudgetGate).Assembly.Location);
        using var pe = new PEReader(stream);
        var metadata = pe.GetMetadataReader();
        var names = metadata.TypeDefinitions.Select(metadata.GetTypeDefinition)
            .Select(t => $"{metadata.GetString(t.Namespace)}.{metadata.GetString(t.Name)}").ToList();

        var machinery = names.Where(n => n.Contains(".DocTable", StringComparison.Ordinal) || n.Contains(".Locust", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(names);
        Assert.True(machinery.Count == 0, $"The core package's lib/ assembly holds this repository's machinery: {string.Join(", ", machinery)}.");
    }
}
