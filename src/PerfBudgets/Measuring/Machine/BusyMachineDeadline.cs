using System.Diagnostics;
using System.Globalization;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// A deadline that counts only the time the neighbours left: each stretch of the wall clock times one less the share of
/// the machine other processes than this tree took over it (<see cref="NeighbourCpu"/>). A counted run is deterministic
/// but slow, and beside a busy machine's other jobs it may get a tenth of a core: it is not killed as hung for being
/// starved, while one that hangs on a quiet machine is killed on time. It never stretches past
/// <see cref="MaximumStretch"/> times the timeout of wall clock, so a run stays bounded; where <c>/proc</c> cannot tell
/// the share (not Linux) it is the wall clock's.
/// </summary>
internal sealed class BusyMachineDeadline : Deadline
{
    /// <summary>How far the neighbours may stretch the timeout on the wall clock.</summary>
    public const int MaximumStretch = 6;

    // /proc is read at most once a second: a wait asked again per operation (a served host's every answer) would
    // otherwise walk the process tree per operation.
    private static readonly TimeSpan ShortestStretch = TimeSpan.FromSeconds(1);

    private readonly Func<TimeSpan> _wall;
    private readonly Func<NeighbourCpu.Snapshot?> _take;
    private NeighbourCpu.Snapshot? _last;
    private TimeSpan _lastAt;
    private TimeSpan _counted;
    private double _share;

    /// <summary>A deadline of <paramref name="timeout"/> of the time the neighbours leave, from now.</summary>
    public BusyMachineDeadline(TimeSpan timeout)
        : this(timeout, Clock(), NeighbourCpu.Take)
    {
    }

    internal BusyMachineDeadline(TimeSpan timeout, Func<TimeSpan> wall, Func<NeighbourCpu.Snapshot?> take)
        : base(timeout)
    {
        _wall = wall;
        _take = take;
        _last = take();
        _lastAt = wall();
    }

    /// <summary>
    /// The time counted so far: the wall clock less what the neighbours took (the stretch since the last reading of
    /// <c>/proc</c> at the share read then).
    /// </summary>
    public TimeSpan Counted
    {
        get
        {
            var now = _wall();
            Update(now);
            return _counted + ((now - _lastAt) * (1 - _share));
        }
    }

    /// <inheritdoc />
    public override TimeSpan Remaining
    {
        get
        {
            var left = Timeout - Counted;
            var cap = (Timeout * MaximumStretch) - _wall();
            return left < cap ? left : cap;
        }
    }

    /// <inheritdoc />
    public override string ToString()
    {
        var counted = Counted;
        var wall = _wall();
        return wall - counted < TimeSpan.FromSeconds(1)
            ? base.ToString()
            : string.Create(CultureInfo.InvariantCulture,
                $"{Timeout.TotalSeconds:0.#} s of the time the neighbours left it ({wall.TotalSeconds:0} s of wall clock, the neighbours holding {(1 - (counted / wall)) * 100:0}% of the machine; at most {MaximumStretch} times the timeout)");
    }

    private static Func<TimeSpan> Clock()
    {
        var started = Stopwatch.GetTimestamp();
        return () => Stopwatch.GetElapsedTime(started);
    }

    // Counts the stretch since the last reading at the neighbours' share over it, once it is a second long. A stretch
    // too short to tell a share waits for the next reading; without /proc every stretch counts whole.
    private void Update(TimeSpan now)
    {
        if (now - _lastAt < ShortestStretch)
        {
            return;
        }

        var snapshot = _take();
        if (_last is null || snapshot is null)
        {
            _share = 0;
        }
        else if (NeighbourCpu.ShareBetween(_last, snapshot) is { } share)
        {
            _share = share;
        }
        else
        {
            return;
        }

        _counted += (now - _lastAt) * (1 - _share);
        _last = snapshot;
        _lastAt = now;
    }
}
