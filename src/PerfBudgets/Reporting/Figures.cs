using System.Globalization;

namespace PerfBudgets.Reporting;

/// <summary>Formats measured figures the same way in failure messages and in the summary table.</summary>
internal static class Figures
{
    /// <summary>Whole numbers and large values with thousands separators; small fractions with up to three decimals.</summary>
    public static string Format(double value)
    {
        if (double.IsNaN(value) || double.IsInfinity(value))
        {
            return value.ToString(CultureInfo.InvariantCulture);
        }

        return Math.Abs(value) >= 100 || value == Math.Floor(value)
            ? value.ToString("#,0", CultureInfo.InvariantCulture)
            : value.ToString("#,0.###", CultureInfo.InvariantCulture);
    }

    /// <summary>How far <paramref name="measured"/> is from <paramref name="limit"/>, as a signed percentage of the limit.</summary>
    public static string Overshoot(double measured, double limit)
    {
        if (limit == 0)
        {
            return measured == 0 ? "(0%)" : "(over a zero budget)";
        }

        // Small overshoots keep a decimal: a 0.4% allocation regression must not read as "+0%".
        var percent = (measured - limit) / Math.Abs(limit) * 100;
        var text = Math.Abs(percent) < 10 ? percent.ToString("0.#", CultureInfo.InvariantCulture) : percent.ToString("0", CultureInfo.InvariantCulture);
        return $"({(percent >= 0 ? "+" : string.Empty)}{text}%)";
    }
}
