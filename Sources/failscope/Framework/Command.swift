/// A subcommand of `failscope`, declared as swift-argument-parser declares one: its name, one-sentence
/// summary, discussion, options and positional arguments; `run` reads its values from `Arguments` by the
/// same declarations.
///
/// Its help (`failscope help <name>`, `failscope <name> --help`) and usage line are generated from the
/// declarations by `CommandHelp`. A usage error prints `Error: …`, then the usage line, on stderr and
/// exits 64 (`EX_USAGE`, sysexits.h). "Adding a command" in docs/architecture.md shows one.
protocol Command: Sendable {
    static var name: String { get }
    /// One sentence: the `SUBCOMMANDS` line of `failscope --help` and the `OVERVIEW` of its own help.
    static var summary: String { get }
    /// More about it, printed under the overview (what it does, exit statuses). Empty by default.
    static var discussion: String { get }
    /// Every option it takes, in the order help lists them.
    static var options: [any OptionDeclaration] { get }
    /// Its positional words, if it takes any.
    static var positional: PositionalArgument? { get }
    /// Runs the command; returns the process exit code.
    static func run(_ arguments: Arguments) async throws -> Int32
}

extension Command {
    static var discussion: String { "" }
    static var positional: PositionalArgument? { nil }
}

/// The words of a command that are not options: a list (`<file> ...`, `import`'s reports) or the words
/// after `--`, taken as they are (`failscope test -- swift test`).
struct PositionalArgument: Sendable {
    enum Kind: Sendable {
        /// Words among the options (any word that does not start with `--`).
        case words
        /// Every word after `--`, options of another program included.
        case afterSeparator
    }

    let kind: Kind
    /// The placeholder in help, without brackets (`file`).
    let valueName: String
    let help: String
}
