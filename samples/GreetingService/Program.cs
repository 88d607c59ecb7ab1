await GreetingService.GreetingApp.Build(args).RunAsync();
