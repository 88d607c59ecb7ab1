namespace SystemUnderTest.Json;

/// <summary>Why a pool did not keep a returned buffer.</summary>
public enum JsonBufferDropReason
{
    /// <summary>The pool already held <see cref="JsonPoolOptions.MaximumRetainedBuffers"/> buffers.</summary>
    PoolFull,

    /// <summary>The buffer had grown past <see cref="JsonPoolOptions.MaximumRetainedBufferBytes"/>.</summary>
    TooLarge,
}
