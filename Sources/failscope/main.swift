import Foundation

/// Every subcommand, in the order `failscope --help` lists them.
let commands: [any Command.Type] = [
    ServeCommand.self,
    MigrateCommand.self,
    GCCommand.self,
    CopyCommand.self,
    RunsCommand.self,
    TestCommand.self,
    UploadCommand.self,
    ImportCommand.self,
    ExportCommand.self,
    SummaryCommand.self,
    FlakyCommand.self,
    SlowestCommand.self,
    VersionCommand.self,
]

let overview = """
    OVERVIEW: Failscope — UI test results, failure screenshots and flaky tests by page.

    USAGE: failscope <subcommand> [options]

    SUBCOMMANDS:
    \(commands.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

      See 'failscope help <subcommand>' for detailed help.
    """

@MainActor func help(for command: any Command.Type) -> String {
    "OVERVIEW: \(command.summary)\n\n\(command.usage)"
}

@MainActor func main() async -> Int32 {
    var words = Array(CommandLine.arguments.dropFirst())
    guard let first = words.first, !["-h", "--help", "help"].contains(first) || words.count > 1 else {
        print(overview)
        return 0
    }
    if first == "--version" {
        print("failscope \(VersionCommand.version)")
        return 0
    }
    if first == "help" || first == "-h" || first == "--help" {
        guard let command = commands.first(where: { $0.name == words[1] }) else {
            printError("Error: unknown subcommand '\(words[1])'\nUsage: failscope <subcommand> [options]")
            return 64
        }
        print(help(for: command))
        return 0
    }
    guard let command = commands.first(where: { $0.name == first }) else {
        printError("Error: unknown subcommand '\(first)'\nUsage: failscope <subcommand> [options]")
        return 64
    }
    words.removeFirst()
    let ownWords = words.prefix { $0 != "--" }  // what follows `--` is another program's (`failscope test`)
    if ownWords.contains("--help") || ownWords.contains("-h") {
        print(help(for: command))
        return 0
    }
    do {
        var arguments = try command.parse(words)
        let code = try await command.run(&arguments)
        return code
    } catch let error as CommandError {
        printError("Error: \(error)")
        return error.exitCode
    } catch let error as UsageError {
        printError("Error: \(error)\n\(command.usage.split(separator: "\n").first ?? "")")
        return 64
    } catch {
        printError("Error: \(error)")
        return 1
    }
}

exit(await main())
