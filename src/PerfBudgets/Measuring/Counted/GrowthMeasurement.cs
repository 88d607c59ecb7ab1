using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// One operation counted at two input sizes, and how its cost grows between them: the exponent k of cost ∝ size^k,
/// <c>log(cost(large) / cost(small)) / log(large / small)</c>. Work linear in the input with a fixed part gives at most
/// 1; work that scans everything written so far for each item gives about 2. Counts, not times, so the exponent is
/// the same on any machine with the same runtime.
/// </summary>
/// <param name="Workload">The workload's name, without its size.</param>
/// <param name="Small">The counts at the small size.</param>
/// <param name="SmallSize">The small input size, in <paramref name="Item"/>s (9 employees, 100 bytes).</param>
/// <param name="Large">The counts at the large size.</param>
/// <param name="LargeSize">The large input size, larger than <paramref name="SmallSize"/>.</param>
/// <param name="Item">What the size counts, singular: <c>employee</c>, <c>header</c>, <c>byte</c>.</param>
public sealed record GrowthMeasurement(
    string Workload,
    InstructionMeasurement Small,
    double SmallSize,
    InstructionMeasurement Large,
    double LargeSize,
    string Item)
{
    /// <summary>Large size ÷ small size.</summary>
    public double SizeRatio => LargeSize / SmallSize;

    /// <summary>Instructions per operation at the large size ÷ at the small size.</summary>
    public double CostRatio => Large.InstructionsPerOperation / Small.InstructionsPerOperation;

    /// <summary>The growth exponent: <c>log(CostRatio) / log(SizeRatio)</c>.</summary>
    public double Exponent => ExponentOf(Small.InstructionsPerOperation, SmallSize, Large.InstructionsPerOperation, LargeSize);

    /// <summary>Instructions per item at the large size (instructions per operation ÷ <see cref="LargeSize"/>).</summary>
    public double InstructionsPerItem => Large.InstructionsPerOperation / LargeSize;

    /// <summary>
    /// The exponent k of cost ∝ size^k through two points: <c>log(largeCost / smallCost) / log(largeSize / smallSize)</c>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">A cost or size is not positive, or the sizes are not increasing.</exception>
    public static double ExponentOf(double smallCost, double smallSize, double largeCost, double largeSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(smallCost);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(largeCost);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(smallSize);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(largeSize, smallSize);
        return Math.Log(largeCost / smallCost) / Math.Log(largeSize / smallSize);
    }

    /// <summary>
    /// A one-line account for a result's detail: the sizes, both counts, the ratios, the exponent and the cost per item
    /// at each size, and where the counts were reused from when they were.
    /// </summary>
    public override string ToString()
    {
        var small = Small.InstructionsPerOperation;
        var large = Large.InstructionsPerOperation;
        return string.Create(CultureInfo.InvariantCulture,
            $"{SmallSize:#,0.##} → {LargeSize:#,0.##} {Item}s (x{SizeRatio:#,0.##}): {small:#,0.#} → {large:#,0.#} instructions/op (x{CostRatio:#,0.##}), exponent {Exponent:0.####}; {small / SmallSize:#,0.#} → {large / LargeSize:#,0.#} instructions/{Item}; .NET {Large.RuntimeVersion}, valgrind {Large.ValgrindVersion}{Reuse()}");
    }

    // Where the counts were reused from, or why they were not stored, once for both sizes when one run counted them.
    private string Reuse() =>
        string.Concat(new[] { Small.Reused, Large.Reused }.OfType<ReusedCount>().Distinct().Select(r => $"; {r}")) +
        string.Concat(new[] { Small.NotReusedBecause, Large.NotReusedBecause }.OfType<string>().Distinct().Select(r => $"; counted, not reused: {r}")) +
        string.Concat(new[] { Small.NotStoredBecause, Large.NotStoredBecause }.OfType<string>().Distinct().Select(r => $"; counted, not stored for reuse: {r}"));
}
