namespace PerfBudgets.Budgets;

/// <summary>
/// The limit of a counted budget from its recording and both its margins: <c>recorded × (1 + margin) + marginAbsolute</c>,
/// rounded up to two decimals (a growth exponent: recorded + margin + marginAbsolute, to three).
/// </summary>
/// <remarks>
/// A fraction alone cannot give a count whose noise comes in whole units room: a path recorded at 0 system calls gets
/// limit 0 whatever the fraction, and one stray call in a repetition of 4 operations (0.25/op) fails it. The absolute
/// part is that room, in the budget's unit; <c>perfbudgets calibrate</c> chooses it from the spread it measured.
/// </remarks>
public static class CountedMargin
{
    /// <summary>The limit of a budget of <paramref name="kind"/> recorded at <paramref name="recorded"/> with these margins.</summary>
    public static double Limit(BudgetKind kind, double recorded, double margin, double marginAbsolute)
    {
        if (marginAbsolute == 0)
        {
            return BudgetBook.CountedLimit(kind, recorded, margin);
        }

        // Rounded to a millionth before rounding up, so 2 + 0.5 is not taken as 2.5000000001 and raised a step.
        var scale = kind == BudgetKind.GrowthExponentMax ? 1000 : 100;
        var exact = kind == BudgetKind.GrowthExponentMax ? recorded + margin + marginAbsolute : (recorded * (1 + margin)) + marginAbsolute;
        return Math.Ceiling(Math.Round(exact * scale, 6)) / scale;
    }
}
