using System.Globalization;

namespace SystemUnderTest.Json;

/// <summary>
/// The deterministic data set: every employee is generated from <see cref="Seed"/>, so the same index always gives
/// the same values (and the same JSON bytes) on every machine and run.
/// </summary>
public static class EmployeeData
{
    /// <summary>The fixed seed of the data set.</summary>
    public const int Seed = 20_260_401;

    /// <summary>The largest list the data set holds.</summary>
    public const int MaxCount = 1_000;

    private static readonly string[] FirstNames = ["Nancy", "Andrew", "Janet", "Margaret", "Steven", "Michael", "Robert", "Laura", "Anne", "Zoë", "José", "Åsa"];
    private static readonly string[] LastNames = ["Davolio", "Fuller", "Leverling", "Peacock", "Buchanan", "Suyama", "King", "Callahan", "Dodsworth", "O'Brien", "Müller", "Nakamura"];
    private static readonly string[] Titles = ["Sales Representative", "Vice President, Sales", "Sales Manager", "Inside Sales Coordinator", "Engineer \"Level 2\""];
    private static readonly string[] Streets = ["507 - 20th Ave. E.\nApt. 2A", "908 W. Capital Way", "722 Moss Bay Blvd.", "4110 Old Redmond Rd.", "14 Garrett Hill", "Coventry House\nMiner Rd.", "Edgeham Hollow\nWinchester Way"];
    private static readonly (string City, string? Region, string Country)[] Places =
    [
        ("Seattle", "WA", "USA"), ("Tacoma", "WA", "USA"), ("Kirkland", "WA", "USA"), ("Redmond", "WA", "USA"),
        ("London", null, "UK"), ("München", "BY", "Germany"), ("Tōkyō", null, "Japan"),
    ];

    private static readonly Lazy<Employee[]> All = new(() => Generate(MaxCount));

    /// <summary>The single employee of the "one employee" shape (the first of the data set).</summary>
    public static Employee Single => All.Value[0];

    /// <summary>The first <paramref name="count"/> employees, 1 ≤ count ≤ <see cref="MaxCount"/>, shared and never modified.</summary>
    public static ReadOnlySpan<Employee> First(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, MaxCount);
        return All.Value.AsSpan(0, count);
    }

    /// <summary>A new list holding the first <paramref name="count"/> employees (the list shapes: 9 and 1,000).</summary>
    public static List<Employee> List(int count) => [.. First(count)];

    private static Employee[] Generate(int count)
    {
        // Random(seed) is specified to give the same sequence for the same seed, which is what makes this deterministic.
#pragma warning disable CA5394 // Not for security: a reproducible data set.
        var random = new Random(Seed);
        var employees = new Employee[count];
        for (var i = 0; i < count; i++)
        {
            var place = Places[random.Next(Places.Length)];
            var birth = new DateOnly(1950, 1, 1).AddDays(random.Next(365 * 45));
            var territories = new string[random.Next(1, 5)];
            for (var t = 0; t < territories.Length; t++)
            {
                territories[t] = random.Next(1_000, 99_999).ToString("D5", CultureInfo.InvariantCulture);
            }

            employees[i] = new Employee(
                Id: i + 1,
                FirstName: FirstNames[random.Next(FirstNames.Length)],
                LastName: LastNames[random.Next(LastNames.Length)],
                Title: Titles[random.Next(Titles.Length)],
                BirthDate: birth,
                HireDate: birth.AddYears(20 + random.Next(20)).AddDays(random.Next(365)),
                Address: Streets[random.Next(Streets.Length)],
                City: place.City,
                Region: place.Region,
                PostalCode: random.Next(10_000, 99_999).ToString(CultureInfo.InvariantCulture),
                Country: place.Country,
                HomePhone: string.Create(CultureInfo.InvariantCulture, $"(206) 555-{random.Next(10_000):D4}"),
                Notes: string.Create(CultureInfo.InvariantCulture, $"Employee {i + 1} holds a BA in {Titles[random.Next(Titles.Length)]} studies and joined after {random.Next(2, 15)} years elsewhere; speaks {random.Next(1, 4)} languages. <tags> & \"quotes\" are escaped."),
                Salary: decimal.Round((decimal)(30_000 + (random.NextDouble() * 120_000)), 2),
                Territories: territories);
        }
#pragma warning restore CA5394

        return employees;
    }
}
