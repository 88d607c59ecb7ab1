using System.Diagnostics;
using System.Reflection;
using System.Reflection.Emit;
using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// The refusal is tested on assemblies this test writes, one marked as the compiler marks a Debug build and one as it
// marks a Release build, in a folder laid out as a test's output: a deps.json that lists them as projects. So it is
// exercised in whatever configuration these tests are built.
public sealed class BuildOptimizationTests : IDisposable
{
    private const DebuggableAttribute.DebuggingModes DebugModes = DebuggableAttribute.DebuggingModes.Default
        | DebuggableAttribute.DebuggingModes.DisableOptimizations | DebuggableAttribute.DebuggingModes.IgnoreSymbolStoreSequencePoints
        | DebuggableAttribute.DebuggingModes.EnableEditAndContinue;

    private readonly TestBudgets _budgets = new("build-optimization");
    private readonly DirectoryInfo _output = Directory.CreateTempSubdirectory("perfbudgets-build-optimization-");

    public void Dispose()
    {
        _budgets.Dispose();
        _output.Delete(recursive: true);
    }

    [Fact]
    public void The_optimizer_state_is_read_from_the_assembly_itself()
    {
        BuildOptimization.IsOptimized(typeof(object).Assembly).Should().BeTrue("the runtime is always an optimized build");
        BuildOptimization.IsOptimized(typeof(object).Assembly.Location).Should().BeTrue();
        var debug = WriteAssembly("Library.Debug", DebugModes);
        var release = WriteAssembly("Library.Release", DebuggableAttribute.DebuggingModes.IgnoreSymbolStoreSequencePoints);
        var legacy = WriteAssembly("Library.Legacy", jitOptimizerDisabled: true);

        BuildOptimization.IsOptimized(debug).Should().BeFalse();
        BuildOptimization.IsOptimized(legacy).Should().BeFalse("the (bool, bool) constructor says the same");
        BuildOptimization.IsOptimized(release).Should().BeTrue();
    }

    [Fact]
    public void A_debug_project_assembly_in_the_output_is_found_though_nothing_loaded_it()
    {
        WriteAssembly("TextStats", DebugModes);
        WriteAssembly("TextStats.Workloads", DebuggableAttribute.DebuggingModes.IgnoreSymbolStoreSequencePoints);
        WriteAssembly("Some.Package", DebugModes);
        WriteDeps("TextStats.Tests", projects: ["TextStats", "TextStats.Workloads"], packages: ["Some.Package"]);

        BuildOptimization.FindNonOptimizedProjects(_output.FullName)
            .Should().Equal(["TextStats.dll"], "a package is not code under measurement, and the Release workload host is fine");
    }

    [Fact]
    public void The_refusal_names_the_assembly_and_where_the_release_default_must_go_in_one_line()
    {
        var message = BuildOptimization.RefusalMessage(["TextStats"]);

        message.Should().StartWith("budgets are measured on optimized (Release) builds; the code under measurement is Debug (JIT optimizer disabled in TextStats): ")
            .And.Contain("dotnet test -c Release")
            .And.Contain("Directory.Build.props that covers the tests and every project they reference")
            .And.NotContain(Environment.NewLine);
    }

    [Fact]
    public void A_folder_without_deps_or_with_an_unreadable_one_refuses_nothing()
    {
        BuildOptimization.FindNonOptimizedProjects(_output.FullName).Should().BeEmpty();
        File.WriteAllText(Path.Combine(_output.FullName, "Broken.deps.json"), "{ not json");
        BuildOptimization.FindNonOptimizedProjects(_output.FullName).Should().BeEmpty();
    }

    [Fact]
    public void These_tests_measure_because_their_build_and_the_harness_are_optimized()
    {
        // The suites run Release (Directory.Build.props); the gate would otherwise refuse the tests below it.
        BuildOptimization.FindNonOptimizedProjects(AppContext.BaseDirectory).Should().BeEmpty();
        _budgets.Gate(requireOptimizedBuild: true).Invoking(g => g.Check("Some.CpuCost", 1.5)).Should().NotThrow();
    }

    [Fact]
    public void An_output_size_budget_is_checked_in_any_build()
    {
        var gate = _budgets.Gate(requireOptimizedBuild: true);

        gate.Check("Some.WireBytes", 6).Verdict.Should().Be(BudgetVerdict.Pass);
        gate.Invoking(g => g.Check("Some.WireBytes", 13)).Should().Throw<BudgetExceededException>();
    }

    private string WriteAssembly(string name, DebuggableAttribute.DebuggingModes modes) =>
        WriteAssembly(name, new CustomAttributeBuilder(
            typeof(DebuggableAttribute).GetConstructor([typeof(DebuggableAttribute.DebuggingModes)])!, [modes]));

    private string WriteAssembly(string name, bool jitOptimizerDisabled) =>
        WriteAssembly(name, new CustomAttributeBuilder(
            typeof(DebuggableAttribute).GetConstructor([typeof(bool), typeof(bool)])!, [true, jitOptimizerDisabled]));

    private string WriteAssembly(string name, CustomAttributeBuilder debuggable)
    {
        var assembly = new PersistedAssemblyBuilder(new AssemblyName(name), typeof(object).Assembly);
        assembly.SetCustomAttribute(debuggable);
        assembly.DefineDynamicModule(name).DefineType(name + ".Marker", TypeAttributes.Public).CreateType();
        var path = Path.Combine(_output.FullName, name + ".dll");
        assembly.Save(path);
        return path;
    }

    private void WriteDeps(string application, string[] projects, string[] packages)
    {
        static string Entry(string name) => $"\"{name}/1.0.0\": {{ \"runtime\": {{ \"{name}.dll\": {{}} }} }}";
        static string Library(string name, string type) => $"\"{name}/1.0.0\": {{ \"type\": \"{type}\", \"serviceable\": false, \"sha512\": \"\" }}";
        var entries = string.Join(", ", projects.Concat(packages).Select(Entry));
        var libraries = string.Join(", ", projects.Select(p => Library(p, "project")).Concat(packages.Select(p => Library(p, "package"))));
        File.WriteAllText(Path.Combine(_output.FullName, application + ".deps.json"),
            $"{{ \"targets\": {{ \".NETCoreApp,Version=v10.0\": {{ {entries} }} }}, \"libraries\": {{ {libraries} }} }}");
    }
}
