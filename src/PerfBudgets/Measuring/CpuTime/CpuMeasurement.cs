using System.Globalization;
using PerfBudgets.Statistics;

namespace PerfBudgets.Measuring;

/// <summary>
/// The CPU cost of an operation, batch by batch, beside the calibration kernel measured interleaved with it
/// (<see cref="CpuMeter"/>).
/// </summary>
/// <param name="OperationNanosecondsByBatch">Each batch's CPU time per operation, in nanoseconds.</param>
/// <param name="CalibrationNanosecondsByBatch">Each batch's CPU time per calibration unit, paired with the operation batch of the same index.</param>
/// <param name="OperationsPerBatch">Operations in each measured batch.</param>
/// <param name="UnitsPerBatch">Calibration units in each measured batch.</param>
/// <param name="WarmUp">How long warm-up ran.</param>
/// <param name="Steady">True when warm-up ended on a quiet JIT; false when it gave up at its maximum.</param>
/// <param name="Clock">Which CPU clock measured the operation.</param>
public sealed record CpuMeasurement(
    IReadOnlyList<double> OperationNanosecondsByBatch,
    IReadOnlyList<double> CalibrationNanosecondsByBatch,
    int OperationsPerBatch,
    int UnitsPerBatch,
    TimeSpan WarmUp,
    bool Steady,
    string Clock)
{
    /// <summary>
    /// The gated figure: the operation's cost in calibration units, the lower quartile of the per-pair ratios.
    /// </summary>
    /// <remarks>
    /// Each operation batch is divided by the calibration batch run right beside it, so what slows both (a frequency
    /// step, a busy sibling core, cache pressure from a neighbour) cancels out. Interference only ever adds CPU time,
    /// never removes it, so the low end of the ratios is the undisturbed cost; the lower quartile rather than the
    /// minimum keeps one lucky pair from deciding the figure.
    /// </remarks>
    public double Cost => Quantiles.Interpolated(PairRatios(), 0.25);

    /// <summary>The smallest batch's CPU time per operation, in nanoseconds (the raw figure beside <see cref="Cost"/>).</summary>
    public double OperationNanoseconds => OperationNanosecondsByBatch.Min();

    /// <summary>The median batch's CPU time per operation, in nanoseconds.</summary>
    public double MedianOperationNanoseconds => Quantiles.Interpolated(OperationNanosecondsByBatch, 0.5);

    /// <summary>The smallest batch's CPU time per calibration unit, in nanoseconds.</summary>
    public double CalibrationNanoseconds => CalibrationNanosecondsByBatch.Min();

    /// <summary>The spread of the per-pair ratios: upper quartile ÷ lower quartile − 1 (0.05 reads as 5%).</summary>
    public double Spread
    {
        get
        {
            var ratios = PairRatios();
            return (Quantiles.Interpolated(ratios, 0.75) / Quantiles.Interpolated(ratios, 0.25)) - 1;
        }
    }

    /// <inheritdoc />
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"{Micro(OperationNanoseconds)}/op CPU (median {Micro(MedianOperationNanoseconds)}), calibration {Micro(CalibrationNanoseconds)}/unit (kernel v{CalibrationKernel.Version}), " +
        $"lower quartile of {OperationNanosecondsByBatch.Count} pairs x {OperationsPerBatch:N0} ops, spread {Spread:P0}, " +
        $"warm-up {WarmUp.TotalSeconds:0.0} s{(Steady ? string.Empty : " (JIT not yet quiet)")}, {Clock}");

    private static string Micro(double nanoseconds) => nanoseconds >= 100_000
        ? string.Create(CultureInfo.InvariantCulture, $"{nanoseconds / 1000:#,0} µs")
        : string.Create(CultureInfo.InvariantCulture, $"{nanoseconds / 1000:0.###} µs");

    private double[] PairRatios() => OperationNanosecondsByBatch.Select((op, i) => op / CalibrationNanosecondsByBatch[i]).ToArray();
}
