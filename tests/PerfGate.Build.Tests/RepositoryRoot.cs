namespace PerfGate.Build.Tests;

// The clone these tests run in: the folder above the test assembly that holds PerfGate.slnx.
internal static class RepositoryRoot
{
    public static string Path { get; } = Find();

    private static string Find()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(folder.FullName, "PerfGate.slnx")))
            {
                return folder.FullName;
            }
        }

        throw new InvalidOperationException($"No folder above {AppContext.BaseDirectory} holds PerfGate.slnx: the tests run inside the repository.");
    }
}
