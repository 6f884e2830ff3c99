import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// A subcommand of `failscope`: its name, one-sentence summary, help text and body.
///
/// Help follows swift-argument-parser's shape (`OVERVIEW / USAGE / OPTIONS`); a usage error prints
/// `Error: …` then `Usage: …` on stderr and exits 64 (`EX_USAGE`).
protocol Command: Sendable {
    static var name: String { get }
    static var summary: String { get }
    /// `USAGE` line and `OPTIONS` section, without the overview.
    static var usage: String { get }
    /// Runs the command; returns the process exit code.
    static func run(_ arguments: inout Arguments) async throws -> Int32
    /// Options that take no value (names without `--`).
    static var booleanFlags: Set<String> { get }
}

extension Command {
    static var booleanFlags: Set<String> { [] }

    /// Parses this command's words.
    static func parse(_ words: [String]) throws(UsageError) -> Arguments {
        try Arguments(words, booleanFlags: booleanFlags)
    }
}

/// A parsed command line: `--flag value`, `--flag=value`, boolean `--flag`, and positional words.
struct Arguments {
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var words: [String] = []
    private var positionalRead = false
    private var consumed: Set<String> = []
    /// Options read with `options(_:)`: they may be given more than once.
    private var repeatable: Set<String> = []

    /// The words after `--`, taken as they are (the command `failscope test` runs); reading them accepts them.
    var trailing: [String] {
        mutating get {
            trailingRead = true
            return afterSeparator
        }
    }
    private var afterSeparator: [String] = []
    private var trailingRead = false

    /// The words that are not options (files, for `import`); reading them accepts them.
    var positional: [String] {
        mutating get {
            positionalRead = true
            return words
        }
    }

    /// Parses `words`; `booleanFlags` are the names (without `--`) that take no value.
    init(_ arguments: [String], booleanFlags: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" {
                afterSeparator = Array(arguments[index...])
                break
            }
            guard word.hasPrefix("--"), word.count > 2 else {
                words.append(word)
                continue
            }
            var name = String(word.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if booleanFlags.contains(name) {
                guard value == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            if value == nil {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value (or is not an option)") }
                value = arguments[index]
                index += 1
            }
            options[name, default: []].append(value!)
        }
    }

    /// The last value given for `--name`, or `nil`.
    mutating func option(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]?.last
    }

    /// Every value given for a repeatable `--name`.
    mutating func options(_ name: String) -> [String] {
        consumed.insert(name)
        repeatable.insert(name)
        return options[name] ?? []
    }

    /// `--name` as an integer in `range`, or `defaultValue` when absent.
    mutating func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(UsageError)
        -> Int
    {
        guard let text = option(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), got \"\(text)\"")
        }
        return value
    }

    /// Whether the boolean `--name` was given.
    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    /// Throws when an option was given that the command never asked for, a single-valued option was given
    /// more than once (`--page a --page b`: which one was meant?), or an argument that a command without
    /// arguments would silently ignore (`gc --keep-days 30 /srv/data`).
    func checkAllConsumed() throws(UsageError) {
        let unknown = Set(options.keys).union(flags).subtracting(consumed).sorted()
        if let first = unknown.first { throw UsageError("unknown option '--\(first)'") }
        let repeated = options.filter { $0.value.count > 1 && !repeatable.contains($0.key) }.keys.sorted()
        if let first = repeated.first { throw UsageError("--\(first) is given more than once") }
        if !positionalRead, let first = words.first { throw UsageError("unexpected argument '\(first)'") }
        if !trailingRead, !afterSeparator.isEmpty { throw UsageError("unexpected arguments after '--'") }
    }

    /// The service: `--url`, else `FAILSCOPE_URL` (an empty one is none), an http(s) URL; `nil` when neither
    /// is given.
    /// - Throws: `UsageError` for a URL that is not http(s).
    mutating func serviceURL() throws(UsageError) -> URL? {
        let environment = ProcessInfo.processInfo.environment["FAILSCOPE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = option("url") ?? environment else { return nil }
        return try Self.serviceURL(parsing: text)
    }

    /// `text` as the service's URL: http(s) with a host.
    /// - Throws: `UsageError` quoting `text` with its control characters as `?`.
    static func serviceURL(parsing text: String) throws(UsageError) -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else { throw UsageError("--url must be an http(s) URL, got \"\(RunsCommand.clean(text))\"") }
        return url
    }

    /// ``serviceURL()``, which the command needs.
    mutating func requiredServiceURL() throws(UsageError) -> URL {
        guard let url = try serviceURL() else { throw UsageError("--url (or FAILSCOPE_URL) is required") }
        return url
    }

    /// `--token`, else the environment variable `variable` (`FAILSCOPE_TOKEN` for uploads,
    /// `FAILSCOPE_READ_TOKEN` for reads); an empty value is none, as the reporter reads it.
    mutating func token(else variable: String) -> String? {
        let environment = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        return option("token") ?? environment
    }

    /// `id`, the value of `--<option>` (or of the variable that stands for it), when it is a valid run id
    /// (which needs no escaping in a URL path).
    /// - Throws: `UsageError` saying the rule (`Run.idRule`), with `id` printed safely.
    static func validRunID(_ id: String, option: String = "run-id") throws(UsageError) -> String {
        guard Run.isValidID(id) else {
            throw UsageError("--\(option) must be \(Run.idRule), got \"\(RunsCommand.clean(id))\"")
        }
        return id
    }

    /// `--spool` (or `FAILSCOPE_SPOOL`, default `Spool.defaultPath`): the spool folder's path, as given.
    mutating func spoolPath() -> String {
        option("spool") ?? ProcessInfo.processInfo.environment["FAILSCOPE_SPOOL"] ?? Spool.defaultPath
    }

    /// `--retry-seconds` (0...3600, default the uploader's): how long to retry an unreachable service.
    mutating func retryWindow() throws(UsageError) -> Double {
        Double(try integer("retry-seconds", default: Int(Uploader.defaultRetryWindow), in: 0...3600))
    }

    /// `--data` (or `FAILSCOPE_DATA`, default `.failscope`) as a folder URL.
    /// - Throws: `CommandError` when the path exists and is not a folder.
    mutating func dataDirectory() throws -> URL {
        let path = option("data") ?? ProcessInfo.processInfo.environment["FAILSCOPE_DATA"] ?? ".failscope"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandError("--data \(path) is a file; it must be a folder (it holds failscope.sqlite and artifacts/)")
        }
        return URL(fileURLWithPath: path)
    }
}

extension Arguments {
    /// `--database` (or `FAILSCOPE_DATABASE`): a file path, `sqlite:PATH` or a `postgres://` URI; `nil` when
    /// neither is given (the data folder's `failscope.sqlite`).
    /// - Throws: `UsageError` for a malformed value or a URI with a password.
    mutating func database() throws(UsageError) -> DatabaseLocation? {
        guard let text = option("database") ?? ProcessInfo.processInfo.environment["FAILSCOPE_DATABASE"],
            !text.isEmpty
        else { return nil }
        do {
            return try DatabaseLocation(parsing: text)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The help line of `--database`, the same in every command that takes it.
    static let databaseHelp = """
          --database <db>         The database: a file path or sqlite:PATH, or postgres://user@host:port/db?sslmode=…
                                  (the password from PGPASSWORD or ~/.pgpass, never in the URI).
                                  (default: failscope.sqlite in --data; env FAILSCOPE_DATABASE)
        """
}

/// A mistake in the command line: printed as `Error: …` with the usage, exit code 64.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A failure while running a command (I/O, the network, bad input): printed as `Error: …`, exit 1, or
/// 69 (`EX_UNAVAILABLE`, sysexits.h) when the database cannot be reached.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    var exitCode: Int32 = 1
    init(_ description: String) { self.description = description }

    /// `error` of the store, said after `context`; exit 69 when it is `StoreError.unavailable` or the artifact
    /// storage does not answer.
    init(store error: any Error, _ context: String = "") {
        description = context + "\(error)"
        if case .unavailable? = error as? StoreError { exitCode = 69 }
        if error is ArtifactStorageError { exitCode = 69 }
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
