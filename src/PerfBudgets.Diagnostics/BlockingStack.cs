namespace PerfBudgets.Diagnostics;

/// <summary>
/// Reads a managed stack (innermost frame first, as TraceEvent names methods) for <see cref="BlockingMeter"/>: does
/// it run a thread-pool work item, and is it blocked in a wait there?
/// </summary>
/// <remarks>
/// A pool thread that waits for work sits in <c>LowLevelLifoSemaphore</c> below <c>WorkerThreadStart</c>, outside any
/// work item: that is idle, not blocked. A thread blocked inside a work item has a wait primitive above
/// <c>ThreadPoolWorkQueue.Dispatch</c>: a sleep, a contended lock, a synchronous wait on a task or an event. Awaiting
/// never leaves such a frame, because an await returns the thread to the pool.
/// <para>
/// A wait to enter a lock that the platform's own code takes (the timer queue's behind every <c>Task.Delay</c>, the
/// socket engine's queues, Kestrel's pipes) is not blocking by the code: those locks are held for nanoseconds, so a
/// long wait for one measures how long the machine kept the holder off its core (on a busy machine the waiter spins
/// there, outside managed code, for milliseconds). It is read as <see cref="Reading.InPlatformLock"/> and not counted;
/// the runtime still reports a real wait there as a contention, which the contention budgets count. A lock the code
/// enters itself is counted, spin and wait: how long it is held is the code's to change.
/// </para>
/// </remarks>
internal static class BlockingStack
{
    // The frames that run one work item on a pool thread (user work items, socket completions, timers, Kestrel's
    // IO queues all come through Dispatch).
    private const string WorkItemFrame = "System.Threading.ThreadPoolWorkQueue.Dispatch";

    // IHost.Run and WaitForShutdown (WebApplication.Run calls them).
    private const string HostLifetimeWaits = "Microsoft.Extensions.Hosting.HostingAbstractionsHostExtensions.";

    // A lock's enter: waits to enter a lock, which are the platform's and not the code's blocking when the platform's
    // own code entered the lock (IsPlatformEntered).
    private static readonly string[] LockEnters =
    [
        "System.Threading.Monitor.Enter",
        "System.Threading.Monitor.ReliableEnter",
        "System.Threading.Monitor.TryEnter",
        "System.Threading.Lock.Enter",
        "System.Threading.Lock.TryEnter",
        "System.Threading.ReaderWriterLockSlim.TryEnter",
        "System.Threading.ReaderWriterLockSlim.Enter",
    ];

    // Calls that take a thread off the CPU until something else happens: the lock enters and these. Matched as name
    // prefixes of TraceEvent's "Namespace.Type.Method(args)" names; the outermost matching frame names the wait
    // (Task.Wait, not the ManualResetEventSlim inside it).
    private static readonly string[] Waits =
    [
        .. LockEnters,
        "System.Threading.Thread.Sleep",
        "System.Threading.Thread.Join",
        "System.Threading.Monitor.Wait",
        "System.Threading.WaitHandle.Wait",
        "System.Threading.ManualResetEventSlim.Wait",
        "System.Threading.SemaphoreSlim.Wait",
        "System.Threading.CountdownEvent.Wait",
        "System.Threading.Tasks.Task.Wait",
        "System.Threading.Tasks.Task.InternalWait",
        "System.Threading.Tasks.Task.SpinThenBlockingWait",
        "System.Threading.Tasks.Task`1.get_Result",
        "System.Threading.Tasks.Task`1.GetResultCore",
        "System.Runtime.CompilerServices.TaskAwaiter.HandleNonSuccessAndDebuggerNotification",
        "System.Runtime.CompilerServices.TaskAwaiter.GetResult",
        "System.Runtime.CompilerServices.TaskAwaiter`1.GetResult",
    ];

    // Frames that are plumbing between the code that waited and the wait: skipped when naming the caller.
    private static readonly string[] Plumbing =
    [
        "System.Threading.",
        "System.Runtime.CompilerServices.",
        "System.Runtime.ExceptionServices.",
    ];

    /// <summary>What a stack says about its thread.</summary>
    /// <param name="InWorkItem">The thread runs a thread-pool work item.</param>
    /// <param name="Wait">The blocking call the thread is in, inside that work item; null when it is not blocked.</param>
    /// <param name="Caller">The first frame outside the threading library below the wait; null when not blocked.</param>
    /// <param name="InPlatformLock">The thread waits to enter a lock the platform's own code took: not blocked.</param>
    public readonly record struct Reading(bool InWorkItem, string? Wait, string? Caller, bool InPlatformLock = false)
    {
        /// <summary>True when the thread is blocked inside a work item.</summary>
        public bool IsBlocked => Wait is not null;
    }

    /// <summary>Reads <paramref name="frames"/>, innermost first.</summary>
    public static Reading Read(IReadOnlyList<string> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        var dispatch = -1;
        for (var i = 0; i < frames.Count; i++)
        {
            if (frames[i].StartsWith(WorkItemFrame, StringComparison.Ordinal))
            {
                dispatch = i;
                break;
            }
        }

        return dispatch < 0 ? new Reading(false, null, null) : ReadWork(frames, dispatch, "(the pool's own work)");
    }

    /// <summary>
    /// Reads <paramref name="frames"/> (innermost first) of a process's main thread while the app starts: the whole
    /// stack is the startup's work, and a wait in it is blocked startup, except where the main thread only waits for
    /// the app to run (<see cref="IsRunningAppWait"/>).
    /// </summary>
    public static Reading ReadMainThread(IReadOnlyList<string> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        var reading = ReadWork(frames, frames.Count, "(the entry point)");
        return reading.IsBlocked && IsRunningAppWait(reading.Caller!) ? new Reading(true, null, null) : reading;
    }

    /// <summary>
    /// True when a main thread's wait, called from <paramref name="caller"/>, is the app running rather than its start
    /// blocked: the host's <c>Run</c> or <c>WaitForShutdown</c>, which hold the main thread until the app is stopped,
    /// or the entry point an <c>async Main</c> compiles to (<c>Program.&lt;Main&gt;</c>), which only waits for the
    /// real <c>Main</c>'s task. Code that blocks inside either runs above them, or on a pool thread after an await,
    /// and is read there.
    /// </summary>
    public static bool IsRunningAppWait(string caller)
    {
        ArgumentNullException.ThrowIfNull(caller);
        return caller.StartsWith(HostLifetimeWaits, StringComparison.Ordinal) || caller.EndsWith(".<Main>", StringComparison.Ordinal);
    }

    // The outermost wait frame below frames[end]: Task.Wait rather than the event it waits on, and the caller below it;
    // or, when that wait enters a lock the platform's code took, no wait of the code's.
    private static Reading ReadWork(IReadOnlyList<string> frames, int end, string unnamedCaller)
    {
        var wait = -1;
        for (var i = 0; i < end; i++)
        {
            if (IsWait(frames[i]))
            {
                wait = i;
            }
        }

        if (wait < 0)
        {
            return new Reading(true, null, null);
        }

        return StartsWithAny(frames[wait], LockEnters) && IsPlatformEntered(frames, wait + 1, end)
            ? new Reading(true, null, null, InPlatformLock: true)
            : new Reading(true, Short(frames[wait]), CallerOf(frames, wait + 1, end) ?? unnamedCaller);
    }

    // The first resolved frame that called the wait is the platform's (an unresolved one is not presumed to be).
    private static bool IsPlatformEntered(IReadOnlyList<string> frames, int start, int end)
    {
        for (var i = start; i < end; i++)
        {
            if (frames[i] != "?")
            {
                return !OwnFrames.IsOwn(Short(frames[i]));
            }
        }

        return false;
    }

    /// <summary>
    /// The first frame of <paramref name="frames"/> (innermost first) outside the threading library and the async
    /// machinery, from <paramref name="start"/> up to <paramref name="end"/> (the whole stack by default); null when
    /// there is none.
    /// </summary>
    public static string? CallerOf(IReadOnlyList<string> frames, int start = 0, int? end = null)
    {
        ArgumentNullException.ThrowIfNull(frames);
        for (var i = start; i < (end ?? frames.Count); i++)
        {
            if (frames[i] != "?" && !StartsWithAny(frames[i], Plumbing))
            {
                return Short(frames[i]);
            }
        }

        return null;
    }

    private static bool IsWait(string frame)
    {
        // SemaphoreSlim.WaitAsync and its Core start like SemaphoreSlim.Wait, and return the thread instead of holding it.
        if (Short(frame).Contains("Async", StringComparison.Ordinal))
        {
            return false;
        }

        return StartsWithAny(frame, Waits);
    }

    private static bool StartsWithAny(string frame, string[] prefixes)
    {
        foreach (var prefix in prefixes)
        {
            if (frame.StartsWith(prefix, StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }

    // "System.Threading.Thread.Sleep(int32)" reads as "System.Threading.Thread.Sleep".
    private static string Short(string frame)
    {
        var paren = frame.IndexOf('(', StringComparison.Ordinal);
        return paren > 0 ? frame[..paren] : frame;
    }
}
