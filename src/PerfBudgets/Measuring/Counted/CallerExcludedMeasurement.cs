using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// What the rest of the process allocated per operation while the calling thread drove the operations, batch by
/// batch (<see cref="AllocationMeter.PerOperationExcludingCaller"/>).
/// </summary>
/// <param name="BytesPerOperationByBatch">Each batch's process-wide bytes minus the calling thread's, per operation.</param>
/// <param name="OperationsPerBatch">Operations in each batch.</param>
/// <param name="CallerBytes">What the calling thread itself allocated over all batches (taken out of each batch).</param>
/// <param name="Gen0Collections">Gen-0 collections over all batches.</param>
public sealed record CallerExcludedMeasurement(IReadOnlyList<double> BytesPerOperationByBatch, int OperationsPerBatch, long CallerBytes, int Gen0Collections)
{
    /// <summary>
    /// The smallest batch: other work in the process can only add bytes to a batch, while a regression in the
    /// measured code raises every batch, so the smallest is the figure to gate on.
    /// </summary>
    public double Smallest => BytesPerOperationByBatch.Min();

    /// <summary>The calling thread's own bytes per operation (reported for contrast, not part of <see cref="Smallest"/>).</summary>
    public double CallerBytesPerOperation => (double)CallerBytes / ((long)OperationsPerBatch * BytesPerOperationByBatch.Count);

    /// <inheritdoc />
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"min of {BytesPerOperationByBatch.Count} batches x {OperationsPerBatch:N0} operations: {string.Join(" / ", BytesPerOperationByBatch.Select(b => b.ToString("#,0.###", CultureInfo.InvariantCulture)))} B, {Gen0Collections} gen-0 GCs");
}
