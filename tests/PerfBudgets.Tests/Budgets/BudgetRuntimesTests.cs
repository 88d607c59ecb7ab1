using PerfBudgets.Budgets;

namespace PerfBudgets.Tests.Budgets;

// A budget's limit per target framework ("runtimes"): a test project built for several runtimes gates each on its own.
public sealed class BudgetRuntimesTests
{
    private const string File = """
        { "profiles": ["ci", "local"],
          "budgets": [
            { "name": "Loop.Instructions", "kind": "instructions-max", "limit": 1010, "unit": "instructions/op",
              "recorded": 1000, "margin": 0.01, "recordedOn": { "runtime": "10.0.12", "valgrind": "3.19.0" },
              "runtimes": { "net8.0": { "limit": 1212, "recorded": 1200, "recordedOn": { "runtime": "8.0.34", "valgrind": "3.19.0" } } } },
            { "name": "Loop.BytesPerOp", "kind": "allocated-bytes-per-op", "limit": 0, "unit": "B/op",
              "runtimes": { "net8.0": { "limit": 24, "profiles": { "local": 32 } } } },
            { "name": "Loop.Plain", "kind": "bytes-max", "limit": 5, "unit": "B" }
          ] }
        """;

    [Fact]
    public void A_runtimes_entry_replaces_the_fields_it_names_on_that_framework()
    {
        var book = BudgetBook.Parse(File, "budgets.json", "ci", "net8.0");

        book.Get("Loop.Instructions").Limit.Should().Be(1212);
        book.Get("Loop.Instructions").Recorded.Should().Be(1200);
        book.Get("Loop.Instructions").Margin.Should().Be(0.01, "the margin it does not name is the budget's own");
        book.Get("Loop.Instructions").RecordedOn.Should().Be(new RecordedVersions("8.0.34", "3.19.0"));
        book.Get("Loop.Instructions").TargetFramework.Should().Be("net8.0");
        book.Get("Loop.BytesPerOp").Limit.Should().Be(24);
        BudgetBook.Parse(File, "budgets.json", "local", "net8.0").Get("Loop.BytesPerOp").Limit.Should().Be(32, "a runtime's profile override is its own");
    }

    [Theory]
    [InlineData("net10.0")]
    [InlineData("net9.0")]
    [InlineData(null)]
    public void Another_framework_or_none_keeps_the_budgets_own_fields(string? framework)
    {
        var book = BudgetBook.Parse(File, "budgets.json", "ci", framework);

        book.Get("Loop.Instructions").Limit.Should().Be(1010);
        book.Get("Loop.Instructions").RecordedOn!.Runtime.Should().Be("10.0.12");
        book.Get("Loop.Instructions").TargetFramework.Should().BeNull();
        book.Get("Loop.BytesPerOp").Limit.Should().Be(0);
        book.Get("Loop.Plain").Limit.Should().Be(5);
    }

    [Fact]
    public void A_counted_runtimes_entry_is_held_to_its_own_recording()
    {
        var act = () => BudgetBook.Parse(File.Replace("\"limit\": 1212", "\"limit\": 1300", StringComparison.Ordinal), "budgets.json", "ci", "net8.0");

        act.Should().Throw<BudgetFileException>().WithMessage("*'Loop.Instructions' (net8.0): limit 1300 is not recorded 1200*");
    }

    // Each malformed runtimes entry, and the words its error must contain: every entry is checked on every framework.
    public static TheoryData<string, string> BadEntries => new()
    {
        { "\"runtimes\": [ 1 ]", "'runtimes' must be an object" },
        { "\"runtimes\": { \"8.0\": { \"limit\": 1 } }", "'8.0' is not a target framework" },
        { "\"runtimes\": { \"net8.0\": 3 }", "'net8.0' must be an object" },
        { "\"runtimes\": { \"net8.0\": { \"kind\": \"bytes-max\" } }", "sets 'kind'" },
    };

    [Theory]
    [MemberData(nameof(BadEntries))]
    public void A_malformed_runtimes_entry_fails_on_every_framework(string entry, string expected)
    {
        var file = $$"""{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "bytes-max", "limit": 1, "unit": "B", {{entry}} } ] }""";

        var act = () => BudgetBook.Parse(file, "budgets.json", "ci", "net10.0");

        act.Should().Throw<BudgetFileException>().WithMessage($"*{expected}*");
    }

    [Theory]
    [InlineData(".NETCoreApp,Version=v8.0", "net8.0")]
    [InlineData(".NETCoreApp,Version=v10.0", "net10.0")]
    [InlineData(".NETFramework,Version=v4.8", null)]
    [InlineData(null, null)]
    public void The_built_target_framework_is_read_from_its_full_name(string? fullName, string? expected) =>
        HarnessEnvironment.BuiltTargetFramework(fullName).Should().Be(expected);

    [Fact]
    public void The_entry_for_the_framework_is_laid_over_the_budget_and_the_runtimes_field_dropped()
    {
        using var document = System.Text.Json.JsonDocument.Parse("""{ "limit": 1, "unit": "B", "runtimes": { "net8.0": { "limit": 2 } } }""");

        var (entry, overridden) = BudgetRuntimes.ForTargetFramework(document.RootElement, "net8.0", "budgets.json: budget 'X'");

        overridden.Should().BeTrue();
        entry.GetRawText().Should().Be("""{"limit":2,"unit":"B"}""");
        BudgetRuntimes.ForTargetFramework(document.RootElement, "net9.0", "budgets.json: budget 'X'").Overridden.Should().BeFalse();
    }
}
