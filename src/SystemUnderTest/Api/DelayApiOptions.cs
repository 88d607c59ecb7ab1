using System.ComponentModel.DataAnnotations;

namespace SystemUnderTest.Api;

/// <summary>Settings of the delay API (configuration section <c>DelayApi</c>).</summary>
public sealed class DelayApiOptions
{
    /// <summary>The configuration section these options bind to.</summary>
    public const string SectionName = "DelayApi";

    /// <summary>Largest accepted <c>ms</c>; larger values answer 400. Default 10,000: a request may hold a
    /// connection (and, on the blocking endpoint, a thread) for at most ten seconds.</summary>
    [Range(0, 600_000)]
    public int MaxDelayMilliseconds { get; set; } = 10_000;
}
