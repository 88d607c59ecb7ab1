namespace PerfBudgets.Tool.Calibration;

/// <summary>The margins <see cref="CalibrationPolicy.Counted"/> chose (the fraction, and the absolute room in the budget's unit), and why.</summary>
internal sealed record CountedChoice(double Margin, double MarginAbsolute, string Reason, bool Warning);
