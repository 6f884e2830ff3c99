import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// `failscope runs`: lists runs, newest first, from a service (`--url`) or a local data folder.
enum RunsCommand: Command {
    static let name = "runs"
    static let summary = "List runs, newest first."

    /// `--url`, also spelled `--server` (its older name).
    static let url = SharedOptions.url.alias("server")
    static let data = SharedOptions.data.help("Read a local data folder instead.")
    static let database = SharedOptions.database.help(
        "With --data: its database, a path, sqlite:PATH or postgres://… (a URI without a password).")
    static let project = Option<String>("project", value: "name", help: "Only runs of this project.")
    static let branch = Option<String>("branch", value: "name", help: "Only runs of this branch.")
    static let status = Option<RunStatus>(
        "status", value: "status", help: "Only runs that are incomplete, passed or failed.",
        parse: { text throws(InvalidValue) in
            guard let status = RunStatus(rawValue: text) else {
                throw InvalidValue(mustBe: InvalidValue.list(RunStatus.allCases.map(\.rawValue)))
            }
            return status
        })
    static let limit = Option<Int>.integer("limit", in: 1...200, help: "Runs per page.", default: 20)
    static let cursor = Option<String>(
        "cursor", value: "cursor", help: "Continue after a previous page (its \"next:\" line).")
    static let json = Option<Bool>.flag("json", help: "Print the API's JSON (RunList) instead of a table.")
    static let options: [any OptionDeclaration] = [
        url, SharedOptions.readToken, data, database, project, branch, status, limit, cursor, json,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let server = try arguments.value(url)
        let token = try arguments.value(SharedOptions.readToken)
        let data = try arguments.dataDirectory()
        let database = try arguments.value(Self.database)
        var query = FailscopeStore.RunQuery()
        query.project = try arguments.value(project)
        query.branch = try arguments.value(branch)
        query.status = try arguments.value(status)
        query.limit = try arguments.required(limit)
        query.cursor = try arguments.value(cursor)
        let json = arguments.flag(Self.json)

        let list: RunList
        if let server {
            list = try await fetch(server: server, token: token, query: query)
        } else {
            if database == nil, !FileManager.default.fileExists(atPath: data.path) {
                var missing = CommandError("no data folder at \(data.path) (use --data or --url)")
                missing.exitCode = 69  // as for a database that cannot be opened
                throw missing
            }
            do {
                let store = try FailscopeStore(directory: data, database: database)
                defer { store.close() }
                list = try store.runs(query)
            } catch {
                throw CommandError(store: error)
            }
        }
        if json {
            print(String(decoding: try WireCoding.encoder().encode(list), as: UTF8.self))
        } else {
            print(table(list))
        }
        return 0
    }

    static func fetch(server: URL, token: String?, query: FailscopeStore.RunQuery) async throws -> RunList {
        var parameters = ["limit": String(query.limit)]
        for (key, value) in [
            ("project", query.project), ("branch", query.branch), ("status", query.status?.rawValue),
            ("cursor", query.cursor),
        ] {
            if let value { parameters[key] = value }
        }
        do {
            let client = APIClient(baseURL: server, token: token)
            return try await client.get(RunList.self, "api/v1/runs", query: parameters)
        } catch let error as APIClientError {
            throw CommandError(clean("\(error)"))  // it quotes the service: untrusted text
        }
    }

    /// A fixed-width table; test-controlled text is stripped of control characters (no terminal escapes).
    static func table(_ list: RunList) -> String {
        let header = ["STATUS", "STARTED (UTC)", "PROJECT", "BRANCH", "COMMIT", "RESULTS", "FAILING", "RUN"]
        var rows = [header]
        for summary in list.runs {
            let run = summary.run
            rows.append([
                summary.status.rawValue,
                String(WireCoding.formatDate(run.startedAt).prefix(19)).replacingOccurrences(of: "T", with: " "),
                clean(run.project), clean(run.branch ?? "-"), clean(String((run.commit ?? "-").prefix(10))),
                String(summary.counts.total), String(summary.counts.failingTests), clean(run.id),
            ])
        }
        let widths = header.indices.map { column in min(40, rows.map { $0[column].count }.max() ?? 0) }
        var lines = rows.map { row in
            row.enumerated().map { column, cell in
                // The run id, last, is never cut: it is what `export --run` and the API take.
                guard column < row.count - 1 else { return cell }
                let text = cell.count > widths[column] ? String(cell.prefix(widths[column] - 1)) + "…" : cell
                return text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        if list.runs.isEmpty { lines.append("(no runs)") }
        if let next = list.nextCursor { lines.append("next: --cursor \(next)") }
        return lines.joined(separator: "\n")
    }

    /// `text` made safe and honest on a terminal: every control character (C0, DEL, C1) becomes `?`, so no
    /// escape sequence reaches the terminal; every invisible or reordering character (format characters such as
    /// the bidi overrides and isolates U+202A-202E and U+2066-2069, zero-width U+200B-200D, U+FEFF; line and
    /// paragraph separators; blank fillers) is shown as `<U+202E>`, so `ma\u{200B}in` cannot pass for `main`
    /// nor a reversed commit for another. The dashboard's text nodes (Web/js/dom.js) show the same set as badges.
    /// The one escaping of test-controlled text for the CLI.
    static func clean(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                out += "?"
            } else if isInvisible(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static let invisibleExtras: Set<UInt32> = [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0]

    /// Whether `scalar` is invisible or reorders its neighbours (see ``clean(_:)``).
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return invisibleExtras.contains(scalar.value)
        }
    }
}
