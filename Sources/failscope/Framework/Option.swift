/// One option of a command, declared once: its name, value name, one-sentence help, default,
/// environment variable, whether it is required, repeatable or a flag, and how its text becomes a value.
///
/// The parser (`Arguments`) and the help (`CommandHelp`) both read this declaration, as
/// swift-argument-parser's `@Option`/`@Flag` do: an option that is not declared is refused
/// ("unknown option '--x'"), and every declared one is listed in the command's `USAGE` and `OPTIONS`.
///
/// A value's text comes from the command line (`--name value` or `--name=value`; the last one given,
/// or every one for a repeatable option), else from `environment` (an empty variable is none; a
/// repeatable option's variable is a comma-separated list), else `defaultValue`.
struct Option<Value: Sendable>: OptionDeclaration {
    /// The long name without `--` (kebab-case).
    private(set) var name: String
    /// Other spellings that mean the same option (without `--`), e.g. an older name.
    var aliases: [String] = []
    /// The placeholder shown in help (`<n>`), `nil` for a flag (which takes no value).
    let valueName: String?
    /// One sentence (or two) of help.
    var help: String
    /// The value when neither the command line nor the environment gives one.
    var defaultValue: Value?
    /// What help shows after `default:`; `nil` shows `defaultValue` (a default the command computes at
    /// run time, such as the working directory's name, is described here with `defaultValue` `nil`).
    var defaultHelp: String?
    /// The environment variable read when the option is not given.
    var environment: String?
    /// A missing value is a usage error ("--name is required").
    var isRequired = false
    /// It may be given more than once (each value kept); otherwise a second one is a usage error.
    var isRepeatable = false
    /// The value of `text`. Throws `InvalidValue` saying what the value must be.
    let parse: @Sendable (String) throws(InvalidValue) -> Value

    init(
        _ name: String, value valueName: String?, help: String, default defaultValue: Value? = nil,
        defaultHelp: String? = nil, environment: String? = nil, required: Bool = false, repeatable: Bool = false,
        parse: @escaping @Sendable (String) throws(InvalidValue) -> Value
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.defaultHelp = defaultHelp
        self.environment = environment
        self.isRequired = required
        self.isRepeatable = repeatable
        self.parse = parse
    }

    var defaultDescription: String? {
        defaultHelp ?? defaultValue.map { "\($0)" }
    }

    /// The value of `text` as this option's, or the usage error that names the option.
    func value(of text: String) throws(UsageError) -> Value {
        do {
            return try parse(text)
        } catch {
            throw error.usageError(option: name, text: text)
        }
    }

    // Per-command variations of a shared declaration (its name and parsing stay the shared one's).

    /// This option with `help` as its help.
    func help(_ help: String) -> Self { with { $0.help = help } }
    /// This option, required.
    func required() -> Self { with { $0.isRequired = true } }
    /// This option with another environment variable.
    func environment(_ variable: String) -> Self { with { $0.environment = variable } }
    /// This option's value and parsing under another name, required, without the environment variable
    /// and default (`copy --from` and `--to` are two databases).
    func named(_ name: String, help: String) -> Self {
        with {
            $0.name = name
            $0.help = help
            $0.environment = nil
            $0.defaultValue = nil
            $0.defaultHelp = nil
            $0.isRequired = true
        }
    }
    /// This option with `text` as what help shows after `default:`.
    func defaultHelp(_ text: String) -> Self { with { $0.defaultHelp = text } }
    /// This option with an older spelling that means the same.
    func alias(_ name: String) -> Self { with { $0.aliases.append(name) } }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}

extension Option where Value == String {
    /// An option whose value is its text.
    init(
        _ name: String, value valueName: String, help: String, default defaultValue: String? = nil,
        defaultHelp: String? = nil, environment: String? = nil, required: Bool = false, repeatable: Bool = false
    ) {
        self.init(
            name, value: valueName, help: help, default: defaultValue, defaultHelp: defaultHelp,
            environment: environment, required: required, repeatable: repeatable, parse: { $0 })
    }

    /// An option whose value is one of `choices` ("must be markdown or json").
    static func choice(
        _ name: String, value valueName: String? = nil, _ choices: [String], help: String,
        default defaultValue: String? = nil
    ) -> Self {
        Self(
            name, value: valueName ?? choices.joined(separator: "|"), help: help, default: defaultValue,
            parse: { text throws(InvalidValue) in
                guard choices.contains(text) else { throw InvalidValue(mustBe: InvalidValue.list(choices)) }
                return text
            })
    }
}

extension Option where Value == Int {
    /// An option whose value is a whole number in `range`.
    static func integer(
        _ name: String, value valueName: String = "n", in range: ClosedRange<Int>, help: String,
        default defaultValue: Int? = nil, defaultHelp: String? = nil, environment: String? = nil,
        required: Bool = false
    ) -> Self {
        Self(
            name, value: valueName, help: help, default: defaultValue, defaultHelp: defaultHelp,
            environment: environment, required: required,
            parse: { text throws(InvalidValue) in
                guard let value = Int(text), range.contains(value) else {
                    throw InvalidValue(mustBe: "a whole number in \(range.lowerBound)...\(range.upperBound)")
                }
                return value
            })
    }
}

extension Option where Value == Bool {
    /// An option that takes no value: given or not.
    static func flag(_ name: String, help: String) -> Self {
        Self(name, value: nil, help: help, parse: { _ in true })
    }
}

/// What `Arguments` and the help need of an option, whatever its value's type.
protocol OptionDeclaration: Sendable {
    var name: String { get }
    var aliases: [String] { get }
    var valueName: String? { get }
    var help: String { get }
    var defaultDescription: String? { get }
    var environment: String? { get }
    var isRequired: Bool { get }
    var isRepeatable: Bool { get }
}

extension OptionDeclaration {
    /// Whether it takes no value.
    var isFlag: Bool { valueName == nil }
}

/// A value an option's parser refuses: what it must be (said as "--name must be …, got "text"", with
/// the text's control characters as `?`), or a whole message of its own (one that must not quote the
/// value, such as a URI with a password).
struct InvalidValue: Error {
    private let requirement: String?
    private let message: String?

    init(mustBe requirement: String) {
        self.requirement = requirement
        message = nil
    }

    init(message: String) {
        requirement = nil
        self.message = message
    }

    func usageError(option: String, text: String) -> UsageError {
        if let message { return UsageError(message) }
        return UsageError("--\(option) must be \(requirement ?? "valid"), got \"\(RunsCommand.clean(text))\"")
    }

    /// `a`, `a or b`, `a, b or c`.
    static func list(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
