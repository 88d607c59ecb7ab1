using System.Text;
using System.Text.Json;
using SystemUnderTest.Json;

namespace Correctness.Json;

public sealed class BadInputTests
{
    private static readonly JsonPoolOptions Options = new() { MaximumDepth = 8, MaximumStringBytes = 4_096 };

    // Each row: why it is bad, and the JSON. The same rows drive the serializer tests and the endpoint's 400s.
    public static TheoryData<string, string> BadBodies => new()
    {
        { "truncated", Truncated() },
        { "empty", string.Empty },
        { "not JSON", "employees, please" },
        { "wrong type: id is a string", Replace("\"id\":1,", "\"id\":\"one\",") },
        { "wrong type: salary is a string", ReplaceSalary("\"a lot\"") },
        { "wrong type: territories is a string", Replace("\"territories\":[", "\"territories\":\"x\",\"ignored\":[") },
        { "wrong type: an object where the list goes", "{\"id\":1}" },
        { "deep nesting beyond the limit", DeeplyNested(10) },
        { "deep nesting inside an employee", Replace("\"territories\":[", "\"territories\":[[[[[[[[[[") },
        { "huge string", Replace("\"firstName\":\"", "\"firstName\":\"" + new string('x', 5_000)) },
        { "the literal null", "null" },
        { "null for a non-nullable name", Replace("\"lastName\":\"", "\"lastName\":null,\"x\":\"") },
        { "a required property missing", Replace("\"id\":1,", string.Empty) },
        { "trailing garbage", Serialize(1) + "]" },
    };

    [Theory]
    [MemberData(nameof(BadBodies))]
    public void Bad_input_raises_a_JsonException(string why, string body)
    {
        var json = new EmployeeJson(Options);

        var parse = () => RoundTripNotNull(JsonSerializer.Deserialize(Encoding.UTF8.GetBytes(body), json.List.Read));

        parse.Should().Throw<JsonException>(why).Which.Message.Should().NotBeNullOrWhiteSpace();
    }

    [Fact]
    public void Nesting_is_refused_beyond_the_configured_depth_and_accepted_within_it()
    {
        var json = new EmployeeJson(Options);

        // An unknown property is skipped, but the reader still counts its depth: list 1 + employee 2 + nesting.
        JsonSerializer.Deserialize(Encoding.UTF8.GetBytes(DeeplyNested(Options.MaximumDepth - 2)), json.List.Read).Should().HaveCount(1);
        var parse = () => JsonSerializer.Deserialize(Encoding.UTF8.GetBytes(DeeplyNested(Options.MaximumDepth - 1)), json.List.Read);

        parse.Should().Throw<JsonException>().WithMessage("*depth*");
    }

    [Fact]
    public void A_huge_string_names_the_limit()
    {
        var json = new EmployeeJson(Options);
        var body = Encoding.UTF8.GetBytes(Replace("\"notes\":\"", "\"notes\":\"" + new string('y', 10_000)));

        var parse = () => JsonSerializer.Deserialize(body, json.List.Read);

        parse.Should().Throw<JsonException>().WithMessage("*exceeds the limit of 4096 bytes*MaximumStringBytes*");
    }

    [Fact]
    public void A_string_at_the_limit_is_accepted()
    {
        var json = new EmployeeJson(Options);
        var notes = new string('z', 4_096);
        var body = Encoding.UTF8.GetBytes(JsonSerializer.Serialize(new List<Employee> { EmployeeData.Single with { Notes = notes } }, json.List.Write));

        JsonSerializer.Deserialize(body, json.List.Read)![0].Notes.Should().Be(notes);
    }

    internal static string Serialize(int count) => JsonSerializer.Serialize(EmployeeData.List(count), EmployeeJson.Default.List.Write);

    private static string DeeplyNested(int arrays) =>
        Replace("\"id\":1,", "\"id\":1,\"extra\":" + new string('[', arrays) + new string(']', arrays) + ",");

    private static string Truncated()
    {
        var whole = Serialize(2);
        return whole[..(whole.Length / 2)];
    }

    private static string Replace(string from, string to)
    {
        var whole = Serialize(1);
        whole.Should().Contain(from);
        return whole.Replace(from, to, StringComparison.Ordinal);
    }

    private static string ReplaceSalary(string value)
    {
        var whole = Serialize(1);
        var start = whole.IndexOf("\"salary\":", StringComparison.Ordinal) + "\"salary\":".Length;
        var end = whole.IndexOf(',', start);
        return whole[..start] + value + whole[end..];
    }

    private static List<Employee> RoundTripNotNull(List<Employee>? value) =>
        value ?? throw new JsonException("null");
}
