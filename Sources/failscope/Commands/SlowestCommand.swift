import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// `failscope slowest`: a project's slowest tests by p95 and its duration regressions (docs/durations.md), as a
/// terminal table or the API's JSON, from a Failscope service or a data folder.
enum SlowestCommand: Command {
    static let name = "slowest"
    static let summary = "The slowest tests of a project and the tests that became slower."
    static let usage = """
        USAGE: failscope slowest --project <p> [--branch <b>] [--days <n>] [--limit <n>] [--json]
                                 [--url <url> [--token <t>] | --data <dir> [--database <db>]]

        OPTIONS:
          --project <p>      The project.
          --branch <b>       Only results on this branch. (default: every branch)
          --days <n>         Window of whole UTC days ending today, 1...365. (default: 14)
          --limit <n>        Rows per list, 1...200. (default: 20)
          --json             Print the API's JSON instead of a table.
          --url <url>        Ask this Failscope service. (env FAILSCOPE_URL)
          --token <t>        Read token for --url. (env FAILSCOPE_READ_TOKEN)
          --data <dir>       Read this data folder directly, read-only. (default: .failscope; env FAILSCOPE_DATA)
          --database <db>    With --data: its database, a path, sqlite:PATH or postgres://… (default:
                             failscope.sqlite in --data; env FAILSCOPE_DATABASE)

          Durations of passing results; p50 and p95 by nearest rank; a regression is a p50 of the newest 10
          results at least 20 % and 0.1 s above the p50 of the 10 before (docs/durations.md).
        """
    static let booleanFlags: Set<String> = ["json"]

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        guard let project = arguments.option("project"), !project.isEmpty else {
            throw UsageError("--project is required")
        }
        var query = FailscopeStore.DurationQuery(project: project)
        if let branch = arguments.option("branch"), !branch.isEmpty { query.branch = branch }
        query.days = try arguments.integer("days", default: 14, in: 1...365)
        query.limit = try arguments.integer("limit", default: 20, in: 1...200)
        let json = arguments.flag("json")
        let urlOption = arguments.option("url")
        let data = arguments.option("data")
        let url = try data == nil ? arguments.serviceURL() : nil  // --data reads the folder whatever FAILSCOPE_URL says
        let token = arguments.token(else: "FAILSCOPE_READ_TOKEN")
        let directory = try arguments.dataDirectory()
        let database = try arguments.database()
        try arguments.checkAllConsumed()
        if data != nil && urlOption != nil { throw UsageError("--url and --data exclude each other") }
        let report: DurationReport
        if let url {
            var parameters = ["project": project, "days": String(query.days), "limit": String(query.limit)]
            if let branch = query.branch { parameters["branch"] = branch }
            do {
                report = try await APIClient(baseURL: url, token: token).get(
                    DurationReport.self, "api/v1/durations", query: parameters)
            } catch let error as APIClientError {
                throw CommandError(RunsCommand.clean("\(error)"))  // it quotes the service: untrusted text
            }
        } else {
            do {
                report = try FlakyReader(directory: directory, database: database).durations(query)
            } catch let error as StoreError {
                throw CommandError(store: error)
            }
        }
        if json {
            let encoder = WireCoding.encoder()
            encoder.outputFormatting.insert(.prettyPrinted)
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(table(report))
        }
        return 0
    }

    /// The terminal table: the slowest tests, then the regressions (seconds, 2 decimals).
    static func table(_ report: DurationReport) -> String {
        func name(_ test: TestIdentity) -> String {
            "\(test.suite).\(test.name)\(test.arguments.map { "(\($0))" } ?? "")"
        }
        func seconds(_ value: Double) -> String { String(format: "%.2f", value) }
        var lines = [
            "Slowest tests since \(FlakyTable.day(report.since)) UTC: \(report.slowest.count)", "",
            FlakyTable.cell("TEST", 56) + " " + FlakyTable.cell("P50 S", 8, right: true) + " "
                + FlakyTable.cell("P95 S", 8, right: true) + " " + FlakyTable.cell("RESULTS", 8, right: true),
        ]
        for test in report.slowest {
            lines.append(
                FlakyTable.cell(name(test.test), 56) + " " + FlakyTable.cell(seconds(test.p50), 8, right: true) + " "
                    + FlakyTable.cell(seconds(test.p95), 8, right: true) + " "
                    + FlakyTable.cell(String(test.results), 8, right: true))
        }
        lines.append("")
        lines.append("Slower than before (p50 of the newest \(DurationReport.recentResults) against the \(DurationReport.recentResults) before): \(report.regressions.count)")
        for regression in report.regressions {
            lines.append(
                "  " + FlakyTable.cell(name(regression.test), 56) + " " + seconds(regression.previousP50) + " s → "
                    + seconds(regression.recentP50) + " s")
        }
        return lines.joined(separator: "\n")
    }
}
