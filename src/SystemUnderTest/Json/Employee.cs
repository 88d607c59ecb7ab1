namespace SystemUnderTest.Json;

/// <summary>
/// One employee, with the fields of a typical HR record (the seed's Northwind-style shape). A record so values compare
/// by field; <see cref="Territories"/> is an array, which compares by reference, so tests compare graphs structurally.
/// </summary>
public sealed record Employee(
    int Id,
    string FirstName,
    string LastName,
    string Title,
    DateOnly BirthDate,
    DateOnly HireDate,
    string Address,
    string City,
    string? Region,
    string PostalCode,
    string Country,
    string HomePhone,
    string Notes,
    decimal Salary,
    string[] Territories);
