import FailscopeTesting
import Foundation
import XCTest

@testable import failscope

/// Every command's help and parser come from its declarations: what help lists, the parser takes, and
/// what it does not list, the parser refuses (in the code and in the built binary, exit 64).
final class CommandHelpTests: XCTestCase {
    /// The `--names` in the OPTIONS section of `help` (first spellings and aliases).
    private func listedOptions(_ help: String) -> Set<String> {
        guard let section = help.components(separatedBy: "OPTIONS:\n").last else { return [] }
        var names: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("  -") {
            let label = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            for word in label.split(separator: " ") where word.hasPrefix("--") {
                names.insert(String(word.trimmingCharacters(in: CharacterSet(charactersIn: ","))))
            }
        }
        return names
    }

    func testEveryDeclaredOptionIsInTheHelpAndTheUsageAndNothingElse() {
        for command in Failscope.commands {
            let help = CommandHelp.help(for: command)
            let usage = CommandHelp.usage(of: command)
            let text = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // unwrapped
            var declared: Set<String> = ["--help"]
            for option in command.options {
                for name in [option.name] + option.aliases { declared.insert("--" + name) }
                XCTAssertTrue(usage.contains("--\(option.name)"), "\(command.name): --\(option.name) not in \(usage)")
                if let value = option.valueName {
                    XCTAssertTrue(help.contains("--\(option.name) <\(value)>"), "\(command.name): \(help)")
                }
                let firstWords = option.help.split(separator: " ").prefix(2).joined(separator: " ")
                XCTAssertTrue(text.contains(firstWords), "\(command.name) --\(option.name): \(help)")
                if let variable = option.environment {
                    XCTAssertTrue(text.contains("env \(variable)"), "\(command.name): \(variable) not in \(help)")
                }
                if let value = option.defaultDescription {
                    XCTAssertTrue(
                        text.contains("default: \(value)"), "\(command.name): default \(value) not in \(help)")
                }
                XCTAssertEqual(
                    usage.contains("[--\(option.name)"), !option.isRequired,
                    "\(command.name): a required option stands bare in the usage, an optional one in brackets")
            }
            XCTAssertEqual(listedOptions(help), declared, command.name)
            XCTAssertTrue(help.hasPrefix("OVERVIEW: \(command.summary)\n"), help)
            XCTAssertTrue(help.contains("USAGE: failscope \(command.name)"), help)
            XCTAssertFalse(
                help.split(separator: "\n").contains { $0.count > CommandHelp.width },
                "\(command.name): a line over \(CommandHelp.width) columns:\n\(help)")
            XCTAssertEqual(
                Set(command.options.map(\.name)).count, command.options.count, "\(command.name): a name twice")
        }
    }

    func testTheParserTakesWhatIsDeclaredAndRefusesTheRest() throws {
        for command in Failscope.commands {
            XCTAssertThrowsError(try Arguments(["--no-such-option", "1"], for: command), command.name) {
                XCTAssertEqual("\($0)", "unknown option '--no-such-option'")
            }
            for option in command.options {
                let name = "--\(option.name)"
                if option.isFlag {
                    XCTAssertNoThrow(try Arguments([name], for: command), "\(command.name) \(name)")
                    XCTAssertThrowsError(try Arguments(["\(name)=x"], for: command)) {
                        XCTAssertEqual("\($0)", "\(name) takes no value")
                    }
                    continue
                }
                XCTAssertNoThrow(try Arguments([name, "x"], for: command), "\(command.name) \(name)")
                XCTAssertNoThrow(try Arguments(["\(name)=x"], for: command), "\(command.name) \(name)")
                XCTAssertThrowsError(try Arguments([name], for: command)) {
                    XCTAssertEqual("\($0)", "\(name) needs a value")
                }
                let twice = { try Arguments([name, "x", name, "y"], for: command) }
                if option.isRepeatable {
                    XCTAssertNoThrow(try twice())
                } else {
                    XCTAssertThrowsError(try twice()) { XCTAssertEqual("\($0)", "\(name) is given more than once") }
                }
            }
            if command.positional?.kind != .words {
                XCTAssertThrowsError(try Arguments(["stray"], for: command)) {
                    XCTAssertEqual("\($0)", "unexpected argument 'stray'")
                }
            }
            if command.positional?.kind != .afterSeparator {
                XCTAssertThrowsError(try Arguments(["--", "x"], for: command)) {
                    XCTAssertEqual("\($0)", "unexpected arguments after '--'")
                }
            }
        }
    }

    func testValuesComeFromTheCommandLineTheEnvironmentOrTheDefault() throws {
        let retention = ServeCommand.retentionDays
        XCTAssertEqual(try Arguments(["--retention-days=7"], for: ServeCommand.self).value(retention), 7)
        XCTAssertEqual(try Arguments([], for: GCCommand.self).value(SharedOptions.data), ".failscope")
        XCTAssertThrowsError(try Arguments(["--retention-days", "0"], for: ServeCommand.self).value(retention)) {
            XCTAssertEqual("\($0)", "--retention-days must be a whole number in 1...36500, got \"0\"")
        }
        XCTAssertThrowsError(try Arguments([], for: GCCommand.self).value(GCCommand.keepDays)) {
            XCTAssertEqual("\($0)", "--keep-days is required")
        }
        XCTAssertThrowsError(try Arguments([], for: UploadCommand.self).value(UploadCommand.url)) {
            XCTAssertEqual("\($0)", "--url (or FAILSCOPE_URL) is required")
        }
        XCTAssertThrowsError(
            try Arguments(["--url", "ftp://x\u{1B}"], for: UploadCommand.self).value(UploadCommand.url)
        ) {
            XCTAssertEqual("\($0)", "--url must be an http(s) URL, got \"ftp://x?\"")
        }
        let tokens = try Arguments(["--upload-token", "a", "--upload-token", "b"], for: ServeCommand.self)
        XCTAssertEqual(try tokens.values(ServeCommand.uploadToken), ["a", "b"])
        let older = try Arguments(["--server", "http://127.0.0.1:1"], for: RunsCommand.self)
        XCTAssertEqual(try older.value(RunsCommand.url)?.absoluteString, "http://127.0.0.1:1")
    }

    // The built binary: every command's help, and its usage errors on stderr with exit 64.

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let outcome = try runProcess(BuildProducts.failscope, arguments)
        return (outcome.status, outcome.standardOutput, outcome.standardError)
    }

    func testTheBinaryPrintsEachCommandsHelpAndRefusesAnUndeclaredOption() throws {
        for command in Failscope.commands {
            let help = try run(["help", command.name])
            XCTAssertEqual(help.status, 0, help.error)
            XCTAssertEqual(help.output, CommandHelp.help(for: command) + "\n")
            XCTAssertEqual(try run([command.name, "--help"]).output, help.output)

            let refused = try run([command.name, "--no-such-option", "1"])
            XCTAssertEqual(refused.status, 64, command.name)
            XCTAssertEqual(
                refused.error,
                "Error: unknown option '--no-such-option'\n\(CommandHelp.usageReminder(for: command))\n", command.name)
            XCTAssertEqual(refused.output, "")
        }
        let missing = try run(["gc", "--keep-days"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.error.hasPrefix("Error: --keep-days needs a value\nUsage: failscope gc "), missing.error)
        let bad = try run(["runs", "--limit", "x"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.error.hasPrefix("Error: --limit must be a whole number in 1...200, got \"x\"\n"), bad.error)
    }
}
