using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Reporting.Storage;

public sealed class RecordedMethodsFileTests
{
    [Fact]
    public void The_own_code_and_the_samples_of_an_estimate_are_read_back_as_written()
    {
        using var folder = new TemporaryDirectory();
        Directory.CreateDirectory(folder.Path);
        var path = Path.Combine(folder.Path, RecordedMethodsFile.FileName);
        RecordedMethodsFile.Write(path,
            new Dictionary<string, IReadOnlyList<AttributionEntry>>
            {
                ["A.Instructions"] = [new("A::Run", 900, "instructions/op", null)],
                ["A.Bytes"] = [new("System.String", 1_200, "B/op", null, 300)],
            },
            new Dictionary<string, IReadOnlyList<AttributionEntry>> { ["A.Bytes"] = [new("A.Render", 1_200, "B/op", null, 290)] });

        RecordedMethodsFile.Read(path)["A.Bytes"].Should().Equal(new AttributionEntry("System.String", 1_200, "B/op", null, 300));
        RecordedMethodsFile.Read(path)["A.Instructions"].Should().Equal(new AttributionEntry("A::Run", 900, "instructions/op", null));
        RecordedMethodsFile.ReadOwnCode(path).Should().ContainSingle().Which.Value.Should().Equal(new AttributionEntry("A.Render", 1_200, "B/op", null, 290));
    }

    [Fact]
    public void A_recording_made_before_own_code_was_kept_has_none() =>
        RecordedMethodsFile.ReadOwnCode(Path.Combine(AppContext.BaseDirectory, "no-such-folder", RecordedMethodsFile.FileName)).Should().BeEmpty();
}
