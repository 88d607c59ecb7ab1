namespace Shared.HPackStories;

/// <summary>One header block of an <see cref="HPackStory"/>.</summary>
/// <param name="HeaderTableSize">SETTINGS_HEADER_TABLE_SIZE acknowledged just before this block, when it changed.</param>
/// <param name="Wire">The encoded block, absent in raw-data stories.</param>
/// <param name="Headers">The headers in order.</param>
internal sealed record HPackStoryCase(int? HeaderTableSize, byte[]? Wire, IReadOnlyList<KeyValuePair<string, string>> Headers);
