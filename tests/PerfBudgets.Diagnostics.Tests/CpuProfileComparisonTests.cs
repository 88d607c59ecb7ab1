using PerfBudgets.Diagnostics;

namespace PerfBudgets.Diagnostics.Tests;

// A failing paired budget names what grew in the head's profile against the base's: shares are compared, so profiles
// of different lengths compare, and a share that moved by no more than its sampling error is not named.
public sealed class CpuProfileComparisonTests
{
    private const string Controller = "SystemUnderTest.Json.EmployeesController+<List>d__4.MoveNext()";
    private const string Writer = "System.Text.Json.Utf8JsonWriter.WriteStringMinimized(System.ReadOnlySpan`1<char>)";
    private const string Kestrel = "Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpParser`1.ParseRequestLine()";

    private static CpuProfile Profile(int samples, params (string Method, int Samples)[] methods) =>
        new(methods.Select(m => new MethodSamples(m.Method, m.Samples, m.Samples / (double)samples)).OrderByDescending(m => m.ExclusiveSamples).ToList(),
            samples, SkippedSamples: 0, "server process 1", TimeSpan.FromSeconds(2));

    [Fact]
    public void Names_the_method_whose_share_grew_first()
    {
        var baseProfile = Profile(2_000, (Writer, 600), (Kestrel, 400), (Controller, 20), ("Other", 980));
        var headProfile = Profile(3_000, (Writer, 750), (Kestrel, 500), (Controller, 480), ("Other", 1_270));

        var attribution = headProfile.ComparedWithBase(baseProfile);

        attribution.Summary.Should().Be($"grew against the base (share of managed samples, base → head): {Controller} 1.0% → 16.0%");
        attribution.Entries.Should().ContainSingle().Which.Should().BeEquivalentTo(
            new { Name = Controller, Unit = "share points", Share = 0.16, Samples = 480 }, o => o.ExcludingMissingMembers());
        attribution.Entries[0].Value.Should().BeApproximately(15.0, 1e-9);
        attribution.Note.Should().Contain("2,000 managed samples of the base").And.Contain("3,000 of the head");
    }

    [Fact]
    public void A_method_the_base_never_ran_is_named_with_a_share_of_nothing_before()
    {
        var baseProfile = Profile(2_000, (Writer, 1_000), (Kestrel, 1_000));
        var headProfile = Profile(2_000, (Writer, 900), (Kestrel, 900), ("SystemUnderTest.Json.Added.Work()", 200));

        headProfile.ComparedWithBase(baseProfile).Summary.Should().EndWith("SystemUnderTest.Json.Added.Work() 0.0% → 10.0%");
    }

    [Fact]
    public void A_state_machine_the_compiler_renumbered_is_compared_with_itself_not_named_as_new()
    {
        // An async method added before List in the controller renumbers List's state machine from d__4 to d__5: by name
        // alone it would read 0% → 20% and lead the line, ahead of the method that was added.
        const string Renumbered = "SystemUnderTest.Json.EmployeesController+<List>d__5.MoveNext()";
        const string Added = "SystemUnderTest.Json.EmployeesController+<Audit>d__4.MoveNext()";
        var baseProfile = Profile(2_000, (Writer, 1_000), (Controller, 400), (Kestrel, 600));
        var headProfile = Profile(2_000, (Writer, 800), (Renumbered, 400), (Added, 300), (Kestrel, 500)) with
        {
            OwnCode = [new MethodSamples(Renumbered, 400, 0.2), new MethodSamples(Added, 300, 0.15)],
        };

        var attribution = headProfile.ComparedWithBase(baseProfile with { OwnCode = [new MethodSamples(Controller, 400, 0.2)] });

        attribution.Summary.Should().Be(
            $"grew against the base, own code with what it called (share of managed samples, base → head): {Added} 0.0% → 15.0%; "
            + $"grew against the base (share of managed samples, base → head): {Added} 0.0% → 15.0%");
        attribution.Entries.Select(e => e.Name).Should().Equal(Added);
    }

    [Fact]
    public void Shares_within_their_sampling_error_name_nothing()
    {
        // 30% of 1,000 samples against 33% of 1,000: the difference's standard error is about 2.1 points, so 3 points is
        // noise at three times it.
        var baseProfile = Profile(1_000, (Writer, 300), (Kestrel, 700));
        var headProfile = Profile(1_000, (Writer, 330), (Kestrel, 670));

        var attribution = headProfile.ComparedWithBase(baseProfile);

        attribution.Entries.Should().BeEmpty();
        attribution.Summary.Should().StartWith("no method's share of the managed samples grew beyond its sampling error against the base")
            .And.Contain($"hottest methods (exclusive samples of 1,000, server process 1): {Kestrel} 67%");
    }

    [Fact]
    public void A_profile_without_samples_says_so_instead_of_naming_anything()
    {
        var attribution = Profile(0).ComparedWithBase(Profile(500, (Writer, 500)));

        attribution.Entries.Should().BeEmpty();
        attribution.Summary.Should().StartWith("attribution unavailable: no managed samples to compare (500 of the base");
    }

    [Fact]
    public void A_workload_hosts_one_method_is_named_by_its_samples_per_operation_with_its_share_of_the_growth()
    {
        // The host runs WordCounter.Add and little else, so Add holds nearly every sample on both sides and its share
        // cannot grow; per operation it grew by a fifth: 1,000 samples over 10,000 operations, then 1,200 over 10,000.
        const string Add = "TextStats.WordCounter.Add";
        var baseProfile = Profile(1_010, (Add, 700), ("System.Globalization.Ordinal.GetHashCode", 300), ("Program.Main", 10)) with
        {
            Operations = 10_000,
            OwnCode = [new MethodSamples(Add, 1_000, 1_000 / 1_010.0), new MethodSamples("Program.Main", 10, 10 / 1_010.0)],
        };
        // A sample with no own frame is kept under its innermost frame: the runtime's GC poll grew here, and it is no
        // one's own code, so the own-code line must not name it.
        const string GcPoll = "System.Threading.Thread.<PollGC>g__PollGCWorker|67_0";
        var headProfile = Profile(1_310, (Add, 700), ("System.Globalization.Ordinal.GetHashCode", 500), ("Program.Main", 10), (GcPoll, 100)) with
        {
            Operations = 10_000,
            OwnCode = [new MethodSamples(Add, 1_200, 1_200 / 1_310.0), new MethodSamples(GcPoll, 100, 100 / 1_310.0), new MethodSamples("Program.Main", 10, 10 / 1_310.0)],
        };

        var grown = headProfile.ComparedWithBase(baseProfile);

        grown.Summary.Should().StartWith(
            $"grew against the base, own code with what it called (samples per operation): {Add} +20% per operation (67% of the profile's growth; 100 → 120 samples per 1,000 operations); ");
        // What is recorded is what the summary named, in the same terms: +20 samples per 1,000 operations, two thirds of
        // the +30 the whole profile grew by.
        var recorded = grown.OwnCode.Should().ContainSingle().Subject;
        recorded.Name.Should().Be(Add);
        recorded.Value.Should().BeApproximately(20, 1e-9);
        recorded.Unit.Should().Be("samples per 1,000 operations");
        recorded.Share.Should().BeApproximately(2 / 3.0, 1e-9);
    }
}
