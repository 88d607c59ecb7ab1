using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Tests.Storage;

/// <summary>A PostgreSQL connection string kept off the command line: from a file, or from the environment.</summary>
public sealed class PostgresConnectionStringTests : IDisposable
{
    private const string WithPassword = "Host=db;Database=perfbudgets;Username=perf;Password=s3cret";

    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-secrets-").FullName;

    [Fact]
    public void The_connection_string_is_read_from_a_file_trimmed()
    {
        var file = Path.Combine(_folder, "postgres");
        File.WriteAllText(file, WithPassword + "\n");

        PostgresConnectionString.Resolve(null, file, _ => null).Should().Be(WithPassword);
    }

    [Fact]
    public void Without_an_option_the_environment_variable_gives_it_and_an_option_wins_over_it()
    {
        Func<string, string?> environment = name => name == PostgresConnectionString.EnvironmentVariable ? WithPassword : null;

        PostgresConnectionString.Resolve(null, null, environment).Should().Be(WithPassword);
        PostgresConnectionString.Resolve("Host=other", null, environment).Should().Be("Host=other");
        PostgresConnectionString.Resolve(null, null, _ => null).Should().BeNull("SQLite is kept");
    }

    [Fact]
    public void Both_options_a_missing_file_or_an_empty_one_are_refused()
    {
        var empty = Path.Combine(_folder, "empty");
        File.WriteAllText(empty, "\n");

        ((Action)(() => PostgresConnectionString.Resolve("Host=db", empty, _ => null))).Should().Throw<ArgumentException>().WithMessage("*not both*");
        ((Action)(() => PostgresConnectionString.Resolve(null, Path.Combine(_folder, "none"), _ => null))).Should().Throw<ArgumentException>().WithMessage("*does not exist*");
        ((Action)(() => PostgresConnectionString.Resolve(null, empty, _ => null))).Should().Throw<ArgumentException>().WithMessage("*is empty*");
    }

    [Fact]
    public void A_password_in_the_string_is_noticed()
    {
        PostgresConnectionString.HoldsPassword(WithPassword).Should().BeTrue();
        PostgresConnectionString.HoldsPassword("Host=db;Database=perfbudgets;Username=perf").Should().BeFalse();
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
