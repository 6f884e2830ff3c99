import Foundation

/// A command line parsed by its command's declarations (`Command.options`, `Command.positional`):
/// `--name value`, `--name=value`, a flag `--name`, positional words, and the words after `--`.
///
/// Parsing refuses, as usage errors: an option the command does not declare ("unknown option '--x'"),
/// an option without its value, a value given to a flag, a second value of a single-valued option
/// (`--page a --page b`: which one was meant?), and words the command takes none of
/// (`gc --keep-days 30 /srv/data` must not clean the default folder instead).
struct Arguments: Sendable {
    private let command: String
    private let declared: [String: any OptionDeclaration]
    private var given: [String: [String]] = [:]
    /// The words that are not options (`import`'s files).
    private(set) var positional: [String] = []
    /// The words after `--`, taken as they are (the command `failscope test` runs).
    private(set) var trailing: [String] = []

    /// Parses `words` by `command`'s declarations.
    init(_ words: [String], for command: any Command.Type) throws(UsageError) {
        self.command = command.name
        var declared: [String: any OptionDeclaration] = [:]
        for option in command.options {
            for name in [option.name] + option.aliases { declared[name] = option }
        }
        self.declared = declared
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                trailing = Array(words[index...])
                guard trailing.isEmpty || command.positional?.kind == .afterSeparator else {
                    throw UsageError("unexpected arguments after '--'")
                }
                break
            }
            guard word.hasPrefix("--"), word.count > 2 else {
                guard command.positional?.kind == .words else {
                    throw UsageError("unexpected argument '\(RunsCommand.clean(word))'")
                }
                positional.append(word)
                continue
            }
            var spelled = String(word.dropFirst(2))
            var value: String?
            if let equals = spelled.firstIndex(of: "=") {
                value = String(spelled[spelled.index(after: equals)...])
                spelled = String(spelled[..<equals])
            }
            guard let option = declared[spelled] else {
                throw UsageError("unknown option '--\(RunsCommand.clean(spelled))'")
            }
            if option.isFlag {
                guard value == nil else { throw UsageError("--\(spelled) takes no value") }
                value = ""
            } else if value == nil {
                guard index < words.count else { throw UsageError("--\(spelled) needs a value") }
                value = words[index]
                index += 1
            }
            guard option.isRepeatable || given[option.name] == nil else {
                throw UsageError("--\(option.name) is given more than once")
            }
            given[option.name, default: []].append(value!)
        }
    }

    /// The value of `option`: the command line's, else its environment variable's, else its default;
    /// `nil` when none of them gives one.
    /// - Throws: `UsageError` for a value its parser refuses, or a required option without a value.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        if let text = texts(of: option).last { return try option.value(of: text) }
        if let value = option.defaultValue { return value }
        guard !option.isRequired else {
            throw UsageError("--\(option.name)\(option.environment.map { " (or \($0))" } ?? "") is required")
        }
        return nil
    }

    /// The value of a required option, or of one with a default.
    func required<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        precondition(option.isRequired || option.defaultValue != nil, "--\(option.name) may have no value")
        return try value(option)!
    }

    /// Every value of a repeatable `option` (from its environment variable's comma-separated list when
    /// the command line gives none).
    func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        var values: [Value] = []
        for text in texts(of: option) { values.append(try option.value(of: text)) }
        return values
    }

    /// Whether the flag `option` is given.
    func flag(_ option: Option<Bool>) -> Bool {
        checkDeclared(option)
        return given[option.name] != nil
    }

    /// Whether `option` is given on the command line (its environment variable does not count).
    func isGiven(_ option: some OptionDeclaration) -> Bool {
        checkDeclared(option)
        return given[option.name] != nil
    }

    private func texts(of option: some OptionDeclaration) -> [String] {
        checkDeclared(option)
        if let values = given[option.name] { return values }
        guard let variable = option.environment,
            let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty
        else { return [] }
        guard option.isRepeatable else { return [text] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A command reads only what it declares: help lists nothing it does not take and omits nothing it takes.
    private func checkDeclared(_ option: some OptionDeclaration) {
        precondition(
            declared[option.name].map { $0.valueName == option.valueName } == true,
            "failscope \(command) reads --\(option.name) without declaring it in its options")
    }
}
