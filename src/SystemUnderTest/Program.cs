using SystemUnderTest.Api;
using SystemUnderTest.Cli;

if (CommandLine.IsCommand(args))
{
    return await CommandLine.RunAsync(args);
}

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddControllers();
builder.Services.AddProblemDetails();
builder.Services.AddHealthChecks();
builder.Services.AddJsonPools(builder.Configuration);
builder.Services.AddEchoServer(builder.Configuration);
builder.Services.AddOptions<DelayApiOptions>()
    .Bind(builder.Configuration.GetSection(DelayApiOptions.SectionName))
    .ValidateDataAnnotations()
    .ValidateOnStart();

var app = builder.Build();
app.UseExceptionHandler();
app.UseStatusCodePages();
app.MapControllers();
app.MapHealthChecks("/health");
await app.RunAsync();
return 0;

/// <summary>The application's entry point, public so that WebApplicationFactory&lt;Program&gt; can host it in tests.</summary>
public partial class Program;
