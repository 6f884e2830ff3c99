import Foundation

@MainActor func main() async -> Int32 {
    var words = Array(CommandLine.arguments.dropFirst())
    guard let first = words.first, !["-h", "--help", "help"].contains(first) || words.count > 1 else {
        print(Failscope.overview)
        return 0
    }
    if first == "--version" {
        print("failscope \(VersionCommand.version)")
        return 0
    }
    if first == "help" || first == "-h" || first == "--help" {
        guard let command = Failscope.commands.first(where: { $0.name == words[1] }) else {
            printError("Error: unknown subcommand '\(words[1])'\nUsage: failscope <subcommand> [options]")
            return 64
        }
        print(CommandHelp.help(for: command))
        return 0
    }
    guard let command = Failscope.commands.first(where: { $0.name == first }) else {
        printError("Error: unknown subcommand '\(first)'\nUsage: failscope <subcommand> [options]")
        return 64
    }
    words.removeFirst()
    let ownWords = words.prefix { $0 != "--" }  // what follows `--` is another program's (`failscope test`)
    if ownWords.contains("--help") || ownWords.contains("-h") {
        print(CommandHelp.help(for: command))
        return 0
    }
    do {
        return try await command.run(Arguments(words, for: command))
    } catch let error as CommandError {
        printError("Error: \(error)")
        return error.exitCode
    } catch let error as UsageError {
        printError("Error: \(error)\n\(CommandHelp.usageReminder(for: command))")
        return 64
    } catch {
        printError("Error: \(error)")
        return 1
    }
}

exit(await main())
