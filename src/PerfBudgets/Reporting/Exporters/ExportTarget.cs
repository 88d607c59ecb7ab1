using System.Text;

namespace PerfBudgets.Reporting.Exporters;

/// <summary>
/// Where an exporter's text goes: a file replaced whole (written beside it and moved over it, so a reader never sees
/// half of it), or a file appended to (the CI step summary, which other steps write too). Always UTF-8 without a BOM.
/// </summary>
/// <param name="Path">The file.</param>
/// <param name="Append">True to append to the file instead of replacing it.</param>
public sealed record ExportTarget(string Path, bool Append = false)
{
    /// <summary>The file <paramref name="fileName"/> in <paramref name="directory"/>, replaced whole.</summary>
    public static ExportTarget InFolder(string directory, string fileName) => new(System.IO.Path.Combine(directory, fileName));

    /// <summary>Writes <paramref name="text"/> to the file.</summary>
    public void Write(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (Append)
        {
            File.AppendAllText(Path, text, new UTF8Encoding(false));
            return;
        }

        var temp = Path + ".tmp";
        File.WriteAllText(temp, text, new UTF8Encoding(false));
        File.Move(temp, Path, overwrite: true);
    }
}
