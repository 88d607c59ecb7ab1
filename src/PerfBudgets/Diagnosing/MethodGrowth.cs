namespace PerfBudgets.Diagnosing;

/// <summary>One method's instructions at the two sizes of a growth measurement (<see cref="GrowthAttribution"/>).</summary>
/// <param name="Method">The method (type::name), a native symbol, or a label for code that has no name.</param>
/// <param name="SmallPerItem">Its instructions per item at the small size (exclusive of its callees).</param>
/// <param name="LargePerItem">Its instructions per item at the large size.</param>
/// <param name="Excess">
/// What it ran at the large size beyond linear growth from the small size, in instructions per operation: its count at
/// the large size minus its count at the small size × the size ratio. Negative for a fixed cost.
/// </param>
internal sealed record MethodGrowth(string Method, double SmallPerItem, double LargePerItem, double Excess);
