using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// The instruction-set pin of the counted processes: which host flags it needs, and what it sets.
public sealed class CountedIsaTests
{
    private const string EpycFlags = "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse4_2 popcnt avx avx2 bmi1 bmi2 fma f16c abm movbe erms fsrm avx512f\n\nprocessor\t: 1\n";

    [Fact]
    public void A_host_with_the_x86_64_v3_baseline_lacks_nothing()
    {
        CountedIsa.MissingFlags(EpycFlags).Should().BeEmpty();
    }

    [Fact]
    public void A_host_without_AVX2_or_F16C_is_named_with_what_it_lacks()
    {
        var older = EpycFlags.Replace(" avx2", string.Empty, StringComparison.Ordinal).Replace(" f16c", string.Empty, StringComparison.Ordinal);

        CountedIsa.MissingFlags(older).Should().Equal("avx2", "f16c");
        CountedIsa.MissingFlags("no flags here").Should().Equal(CountedIsa.RequiredHostFlags);
    }

    [Fact]
    public void The_pin_masks_the_string_instructions_Valgrind_counts_per_byte_and_every_JIT_extension_above_the_baseline()
    {
        CountedIsa.GlibcTunables.Should().StartWith("glibc.cpu.hwcaps=-ERMS,-FSRM,").And.Contain("glibc.cpu.x86_non_temporal_threshold=");
        CountedIsa.Environment.Should().Contain("DOTNET_EnableAVX2", "1").And.Contain("DOTNET_EnableAVX512", "0").And.Contain("DOTNET_EnableAPX", "0");
    }
}
