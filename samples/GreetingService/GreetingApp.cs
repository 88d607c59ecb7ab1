using System.Text.Json;
using System.Text.Json.Serialization;

namespace GreetingService;

/// <summary>The service's endpoints: <c>GET /greet/{name}</c> answers <c>{"greeting":"Hello, NAME!"}</c>.</summary>
public static class GreetingApp
{
#if BREAK_SERVER_ALLOCATION
    private static byte[]? Scratch;
#endif

    /// <summary>Builds the app with its endpoints; <c>Program</c> runs it, the tests start it in their own process.</summary>
    public static WebApplication Build(string[] args)
    {
#if BREAK_STARTUP_BLOCKING
        // A settings service read synchronously before the app is built.
        Task.Delay(300).Wait();
#endif
        var builder = WebApplication.CreateSlimBuilder(args);
        var app = builder.Build();
        app.MapGet("/greet/{name}", (string name) =>
        {
#if BREAK_SERVER_ALLOCATION
            // Kept in a field: an array the JIT sees die in the method is put on the stack once the method is
            // optimized (.NET 10's escape analysis), and would allocate nothing.
            Scratch = new byte[1024];
#endif
#if BREAK_SERVER_INSTRUCTIONS
            name = string.Concat(Enumerable.Repeat(name, 50))[..name.Length];
#endif
#if BREAK_BLOCKING
            Thread.Sleep(2);
#endif
            // Serialized whole, so the answer carries its Content-Length rather than chunks.
            return Results.Bytes(JsonSerializer.SerializeToUtf8Bytes(new Greeting($"Hello, {name}!"), GreetingJson.Default.Greeting), "application/json");
        });
        return app;
    }
}

/// <summary>The answer.</summary>
public sealed record Greeting(string Text);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(Greeting))]
internal sealed partial class GreetingJson : JsonSerializerContext;
