import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// The options several commands take, each declared once: a command lists them in its `options`
/// (adjusting the help sentence with `.help(_:)` or making one `.required()` where it needs to) and
/// reads them with `Arguments`, so every command spells, defaults and checks them alike.
enum SharedOptions {
    /// `--url`: the service, an http(s) URL with a host. (env `FAILSCOPE_URL`)
    static let url = Option<URL>(
        "url", value: "url", help: "The Failscope service, e.g. http://127.0.0.1:8080.", environment: "FAILSCOPE_URL",
        parse: serviceURL(parsing:))

    /// `--token` for uploads. (env `FAILSCOPE_TOKEN`; an empty variable is none, as the reporter reads it)
    static let uploadToken = Option<String>(
        "token", value: "token", help: "An upload token.", environment: "FAILSCOPE_TOKEN")

    /// `--token` for reads. (env `FAILSCOPE_READ_TOKEN`)
    static let readToken = Option<String>(
        "token", value: "token", help: "Read token for the service.", environment: "FAILSCOPE_READ_TOKEN")

    /// `--data`: the data folder (the SQLite database and `artifacts/`); read with `Arguments.dataDirectory()`.
    static let data = Option<String>(
        "data", value: "dir", help: "Folder of the database and artifacts.", default: ".failscope",
        environment: "FAILSCOPE_DATA")

    /// `--database`: a file path, `sqlite:PATH` or a `postgres://` URI without a password; without it, the
    /// data folder's `failscope.sqlite`.
    static let database = Option<DatabaseLocation>(
        "database", value: "db",
        help: "The database: a file path or sqlite:PATH, or postgres://user@host:port/db?sslmode=… (the password "
            + "from PGPASSWORD or ~/.pgpass, never in the URI).",
        defaultHelp: "failscope.sqlite in --data", environment: "FAILSCOPE_DATABASE",
        parse: { text throws(InvalidValue) in
            do {
                return try DatabaseLocation(parsing: text)
            } catch {
                throw InvalidValue(message: "\(error)")  // never quotes a password
            }
        })

    /// `--spool`: the reporter spool's folder.
    static let spool = Option<String>(
        "spool", value: "dir", help: "The spool folder.", default: Spool.defaultPath, environment: "FAILSCOPE_SPOOL")

    /// `--retry-seconds`: how long to retry an unreachable service (seconds).
    static let retrySeconds = Option<Int>.integer(
        "retry-seconds", in: 0...3600, help: "How long to retry an unreachable service.",
        default: Int(Uploader.defaultRetryWindow))

    /// `--run`: a run, by its id (`Run.isValidID`, so it needs no escaping in a URL path).
    static let run = Option<String>("run", value: "id", help: "The run.", parse: runID(parsing:))

    /// `--run-id`: the id of a run to write or send (`Run.isValidID`).
    static let runID = Option<String>("run-id", value: "id", help: "The run's id.", parse: runID(parsing:))

    /// `text` as the service's URL: http(s) with a host.
    static func serviceURL(parsing text: String) throws(InvalidValue) -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else { throw InvalidValue(mustBe: "an http(s) URL") }
        return url
    }

    /// `text` when it is a valid run id.
    static func runID(parsing text: String) throws(InvalidValue) -> String {
        guard Run.isValidID(text) else { throw InvalidValue(mustBe: Run.idRule) }
        return text
    }
}

extension Arguments {
    /// `--data` as a folder URL.
    /// - Throws: `CommandError` when the path exists and is not a folder.
    func dataDirectory() throws -> URL {
        let path = try required(SharedOptions.data)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandError(
                "--data \(path) is a file; it must be a folder (it holds failscope.sqlite and artifacts/)")
        }
        return URL(fileURLWithPath: path)
    }

    /// Writes `data` to the file `output` (atomically: a reader sees the old file or the new one), or to
    /// standard output when `output` is `nil` (an `--output` option's two places).
    /// - Throws: `CommandError` naming the file when it cannot be written.
    static func write(_ data: Data, to output: String?) throws {
        guard let output else {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandError("cannot write \(output): \(error.localizedDescription)")
        }
    }

    /// `--retry-seconds` in seconds, as the uploader takes it.
    func retryWindow() throws(UsageError) -> Double {
        Double(try required(SharedOptions.retrySeconds))
    }
}
