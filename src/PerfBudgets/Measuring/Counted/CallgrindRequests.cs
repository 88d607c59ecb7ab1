using System.Runtime.InteropServices;

namespace PerfBudgets.Measuring;

/// <summary>
/// Valgrind client requests to Callgrind from managed code: zero the counters, start and stop instrumentation, toggle
/// collection and dump the counters under a name, so only a chosen region of a process is counted.
/// </summary>
/// <remarks>
/// A client request is a fixed instruction sequence that Valgrind recognises (four rotates of <c>rdi</c> that add up to
/// a full turn, then <c>xchg rbx, rbx</c>): natively it does nothing and returns the default, under Valgrind the tool
/// answers it. C code gets it from the <c>callgrind.h</c> macros; here the harness writes the same 29 bytes of x86-64
/// machine code into an executable page once and calls them through a function pointer, so no native library has to be
/// built or shipped. Other architectures report <see cref="IsSupported"/> false (the meter then says "not measured").
/// The request numbers are those of <c>valgrind.h</c> and <c>callgrind.h</c> (3.x; stable since Callgrind joined Valgrind).
/// </remarks>
internal static unsafe partial class CallgrindRequests
{
    private const ulong RunningOnValgrind = 0x1001;
    private const ulong ToolBase = ((ulong)'C' << 24) | ((ulong)'T' << 16);
    private const ulong ZeroStatsRequest = ToolBase + 1;
    private const ulong ToggleCollectRequest = ToolBase + 2;
    private const ulong DumpStatsAtRequest = ToolBase + 3;
    private const ulong StartInstrumentationRequest = ToolBase + 4;
    private const ulong StopInstrumentationRequest = ToolBase + 5;

    // ulong request(ulong* args /* rdi */, ulong default /* rsi */), System V x86-64:
    //   mov rax, rdi; mov rdx, rsi; rol rdi, 3; rol rdi, 13; rol rdi, 61; rol rdi, 51; xchg rbx, rbx; mov rax, rdx; ret
    private static readonly byte[] RequestCode =
    [
        0x48, 0x89, 0xF8, 0x48, 0x89, 0xF2,
        0x48, 0xC1, 0xC7, 0x03, 0x48, 0xC1, 0xC7, 0x0D, 0x48, 0xC1, 0xC7, 0x3D, 0x48, 0xC1, 0xC7, 0x33,
        0x48, 0x87, 0xDB,
        0x48, 0x89, 0xD0, 0xC3,
    ];

    private static readonly Lazy<nint> Code = new(EmitRequestCode);

    /// <summary>True on x86-64 Linux, where the requests can be issued.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux() && RuntimeInformation.ProcessArchitecture == Architecture.X64;

    /// <summary>True when this process runs under Valgrind (any tool); false natively or where unsupported.</summary>
    public static bool IsRunningOnValgrind => IsSupported && Request(RunningOnValgrind, 0, 0) != 0;

    /// <summary>Sets every counter of the current Callgrind data to zero.</summary>
    public static void ZeroStats() => Request(ZeroStatsRequest, 0, 0);

    /// <summary>Turns event collection on when it is off, and off when it is on.</summary>
    public static void ToggleCollect() => Request(ToggleCollectRequest, 0, 0);

    /// <summary>Starts instrumenting code (the simulated caches start empty).</summary>
    public static void StartInstrumentation() => Request(StartInstrumentationRequest, 0, 0);

    /// <summary>Stops instrumenting code: it runs much faster, and nothing is counted.</summary>
    public static void StopInstrumentation() => Request(StopInstrumentationRequest, 0, 0);

    /// <summary>Writes the counters collected since the last zero or dump to a new profile part named <paramref name="name"/>.</summary>
    public static void DumpStatsAt(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        var text = Marshal.StringToHGlobalAnsi(name);
        try
        {
            Request(DumpStatsAtRequest, (ulong)text, 0);
        }
        finally
        {
            Marshal.FreeHGlobal(text);
        }
    }

    private static ulong Request(ulong request, ulong argument, ulong fallback)
    {
        if (!IsSupported)
        {
            return fallback;
        }

        var args = stackalloc ulong[6];
        args[0] = request;
        args[1] = argument;
        args[2] = args[3] = args[4] = args[5] = 0;
        return ((delegate* unmanaged<ulong*, ulong, ulong>)Code.Value)(args, fallback);
    }

    private static nint EmitRequestCode()
    {
        const int ProtRead = 1, ProtWrite = 2, ProtExec = 4, MapPrivate = 2, MapAnonymous = 0x20;
        var page = mmap(0, 4096, ProtRead | ProtWrite, MapPrivate | MapAnonymous, -1, 0);
        if (page == -1)
        {
            throw new InvalidOperationException($"mmap for the Callgrind request code failed: {Marshal.GetLastPInvokeErrorMessage()}");
        }

        Marshal.Copy(RequestCode, 0, page, RequestCode.Length);
        if (mprotect(page, 4096, ProtRead | ProtExec) != 0)
        {
            throw new InvalidOperationException($"mprotect for the Callgrind request code failed: {Marshal.GetLastPInvokeErrorMessage()}");
        }

        return page;
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint mmap(nint address, nuint length, int protection, int flags, int fd, nint offset);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int mprotect(nint address, nuint length, int protection);
}
