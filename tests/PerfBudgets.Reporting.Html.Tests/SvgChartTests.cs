using System.Text.RegularExpressions;
using PerfBudgets.Reporting.Html;

namespace PerfBudgets.Reporting.Html.Tests;

public sealed partial class SvgChartTests
{
    [Fact]
    public void Two_charts_of_one_page_never_share_a_clip_path_id()
    {
        string Ids(string svg) => string.Join(",", ClipPathIds().Matches(svg).Select(m => m.Groups[1].Value).Distinct());

        var first = SvgChart.Export(SvgChart.NewModel("one"), 200, 100);
        var second = SvgChart.Export(SvgChart.NewModel("two"), 200, 100);

        first.Should().StartWith("<svg", "the XML header is cut for inline use");
        Ids(first).Should().NotBeEmpty().And.NotBe(Ids(second));
    }

    [GeneratedRegex(@"<clipPath id=""([^""]+)""")]
    private static partial Regex ClipPathIds();
}
