using OxyPlot;

namespace PerfBudgets.Reporting.Html;

/// <summary>How a verdict looks in the report: its colour and its name, the same in every chart and table.</summary>
internal static class VerdictStyle
{
    /// <summary>Colour of a verdict, the same in every chart and table.</summary>
    public static OxyColor Color(BudgetVerdict verdict) => verdict switch
    {
        BudgetVerdict.Pass => OxyColor.FromRgb(0x2e, 0x7d, 0x32),
        BudgetVerdict.Warn => OxyColor.FromRgb(0xef, 0x9a, 0x00),
        BudgetVerdict.Fail => OxyColor.FromRgb(0xc6, 0x28, 0x28),
        _ => OxyColor.FromRgb(0x78, 0x90, 0x9c),
    };

    /// <summary>The verdict's name as the page shows it and its CSS class: <c>pass</c>, <c>warn</c>, <c>fail</c>…</summary>
    public static string Name(BudgetVerdict verdict) => verdict.ToString().ToLowerInvariant();

    /// <summary>The colour as CSS: <c>#rrggbb</c>.</summary>
    public static string Css(OxyColor color) => $"#{color.R:x2}{color.G:x2}{color.B:x2}";
}
