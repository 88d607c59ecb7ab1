namespace PerfBudgets.Measuring;

/// <summary>Bytes allocated over a measured run and the gen-0 collections that happened during it.</summary>
/// <param name="TotalBytes">Allocated bytes over the whole measured run.</param>
/// <param name="Operations">How many operations the run performed.</param>
/// <param name="Gen0Collections">Gen-0 collections during the run.</param>
public readonly record struct AllocationMeasurement(long TotalBytes, long Operations, int Gen0Collections)
{
    /// <summary>Allocated bytes per operation.</summary>
    public double BytesPerOperation => Operations == 0 ? 0 : (double)TotalBytes / Operations;

    /// <inheritdoc />
    public override string ToString() => $"{TotalBytes} B over {Operations} ops, {Gen0Collections} gen-0 collections";
}
