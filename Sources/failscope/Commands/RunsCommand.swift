import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// `failscope runs`: lists runs, newest first, from a service (`--url`) or a local data folder.
enum RunsCommand: Command {
    static let name = "runs"
    static let summary = "List runs, newest first."
    static let usage = """
        USAGE: failscope runs [--url <url> | --data <dir> [--database <db>]] [--project <name>] [--branch <name>]
                              [--status <status>] [--limit <n>] [--cursor <cursor>] [--json]

        OPTIONS:
          --url <url>        A Failscope service to ask, e.g. http://127.0.0.1:8080. (env FAILSCOPE_URL)
          --token <token>    Read token for the service. (env FAILSCOPE_READ_TOKEN)
          --data <dir>       Read a local data folder instead. (default: .failscope; env FAILSCOPE_DATA)
          --database <db>    With --data: its database, a path, sqlite:PATH or postgres://… (default:
                             failscope.sqlite in --data; env FAILSCOPE_DATABASE)
          --project <name>   Only runs of this project.
          --branch <name>    Only runs of this branch.
          --status <status>  Only runs that are incomplete, passed or failed.
          --limit <n>        Runs per page, 1...200. (default: 20)
          --cursor <cursor>  Continue after a previous page (its "next:" line).
          --json             Print the API's JSON (RunList) instead of a table.
        """
    static let booleanFlags: Set<String> = ["json"]

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        // --url and FAILSCOPE_URL as every other command; --server is the older spelling.
        let given = arguments.option("url") ?? arguments.option("server")
        let server = try given.map(Arguments.serviceURL(parsing:)) ?? arguments.serviceURL()
        let token = arguments.token(else: "FAILSCOPE_READ_TOKEN")
        let data = try arguments.dataDirectory()
        let database = try arguments.database()
        var query = FailscopeStore.RunQuery()
        query.project = arguments.option("project")
        query.branch = arguments.option("branch")
        if let status = arguments.option("status") {
            guard let parsed = RunStatus(rawValue: status) else {
                throw UsageError("--status must be incomplete, passed or failed, got \"\(status)\"")
            }
            query.status = parsed
        }
        query.limit = try arguments.integer("limit", default: 20, in: 1...200)
        query.cursor = arguments.option("cursor")
        let json = arguments.flag("json")
        try arguments.checkAllConsumed()

        let list: RunList
        if let server {
            list = try await fetch(server: server, token: token, query: query)
        } else {
            if database == nil, !FileManager.default.fileExists(atPath: data.path) {
                throw CommandError("no data folder at \(data.path) (use --data or --url)")
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
                let text = cell.count > widths[column] ? String(cell.prefix(widths[column] - 1)) + "…" : cell
                return column == row.count - 1
                    ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
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
