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

    /// <summary>
    /// A percentage as every message, summary and table writes it: below 10% with one decimal (a 0.4% regression must
    /// not read as 0%), from 10% whole, with thousands separators; never <c>-0%</c>. <paramref name="signed"/> puts a
    /// <c>+</c> before a change that is not negative; <paramref name="decimals"/> fixes the decimals instead (a
    /// re-recording's change of counts, where a hundredth of a percent is news).
    /// </summary>
    public static string Percent(double percent, bool signed = false, int? decimals = null)
    {
        var small = Math.Abs(percent) < 10;
        var rounded = Math.Round(percent, decimals ?? (small ? 1 : 0), MidpointRounding.AwayFromZero);
        rounded = rounded == 0 ? 0 : rounded;
        var format = decimals is { } places ? "#,0." + new string('0', places) : small ? "0.#" : "#,0";
        return $"{(signed && rounded >= 0 ? "+" : string.Empty)}{rounded.ToString(format, CultureInfo.InvariantCulture)}%";
    }

    /// <summary>How far <paramref name="measured"/> is from <paramref name="limit"/>, as a signed percentage of the limit.</summary>
    public static string Overshoot(double measured, double limit)
    {
        if (limit == 0)
        {
            return measured == 0 ? "(0%)" : "(over a zero budget)";
        }

        return $"({Percent((measured - limit) / Math.Abs(limit) * 100, signed: true)})";
    }
}
