import InfCalTerminal

Platform.exit(InfCal.run(arguments: Array(CommandLine.arguments.dropFirst())))
