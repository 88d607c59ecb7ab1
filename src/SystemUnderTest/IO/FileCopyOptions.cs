namespace SystemUnderTest.IO;

/// <summary>Settings of <see cref="FileCopyLoop"/>.</summary>
internal sealed record FileCopyOptions
{
    /// <summary>Size of the generated source file; the seed used 50 MB.</summary>
    public long FileBytes { get; init; } = 50L * 1024 * 1024;

    /// <summary>How many times the file is copied; the seed copied it 100 times.</summary>
    public int Copies { get; init; } = 100;

    /// <summary>Bytes per read and write; 81,920 is what <see cref="Stream.CopyToAsync(Stream)"/> uses by default.</summary>
    public int BufferBytes { get; init; } = 81_920;

    /// <summary>Folder for the temporary files; the system's temporary folder when null.</summary>
    public string? Directory { get; init; }

    /// <summary>Throws for settings the loop cannot run with.</summary>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegative(FileBytes, nameof(FileBytes));
        ArgumentOutOfRangeException.ThrowIfNegative(Copies, nameof(Copies));
        ArgumentOutOfRangeException.ThrowIfLessThan(BufferBytes, 1, nameof(BufferBytes));
    }
}
