import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// `failscope slowest`: a project's slowest tests (or, with `--actions`, page actions) by p95 and their duration
/// regressions (docs/durations.md), as a terminal table or the API's JSON, from a Failscope service or a data
/// folder.
enum SlowestCommand: Command {
    static let name = "slowest"
    static let summary = "The slowest tests or page actions of a project and those that became slower."
    static let discussion = """
        Durations of passing results, or with --actions of timed page-action steps (failing tests and
        traced runs); p50 and p95 by nearest rank; a regression is a p50 of the newest 10 durations at
        least 20 % and 0.1 s above the p50 of the 10 before (docs/durations.md).
        """

    // The filters are the API's parameters: the service, or with --data the store, checks their ranges.
    static let project = Option<String>("project", value: "p", help: "The project.", required: true)
    static let branch = Option<String>(
        "branch", value: "b", help: "Only results on this branch.", defaultHelp: "every branch")
    static let days = Option<Int>.integer(
        "days", in: 1...365, help: "Window of whole UTC days ending today.", default: 14)
    static let limit = Option<Int>.integer("limit", in: 1...200, help: "Rows per list.", default: 20)
    static let actions = Option<Bool>.flag(
        "actions", help: "Page actions (CatalogPage.search(_:)) instead of tests.")
    static let json = Option<Bool>.flag("json", help: "Print the API's JSON instead of a table.")
    static let options: [any OptionDeclaration] = [project, branch, days, limit, actions, json] + ReadSource.options

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let project = try arguments.required(Self.project)
        guard !project.isEmpty else { throw UsageError("--project must not be empty") }
        var query = FailscopeStore.WindowQuery(project: project)
        query.branch = try arguments.value(Self.branch).flatMap { $0.isEmpty ? nil : $0 }
        query.days = try arguments.required(Self.days)
        query.limit = try arguments.required(Self.limit)
        let source = try arguments.readSource()
        let json = arguments.flag(Self.json)
        if arguments.flag(Self.actions) {
            let report = try await read(
                ActionDurationReport.self, "api/v1/durations/actions", query, source,
                store: { try $0.actionDurations(query) })
            print(json ? try pretty(report) : table(report, "page actions", "ACTION", name: \.name))
        } else {
            let report = try await read(
                DurationReport.self, "api/v1/durations", query, source, store: { try $0.durations(query) })
            print(json ? try pretty(report) : table(report, "tests", "TEST", name: testName))
        }
        return 0
    }

    /// The report from the service (`path` with the query's parameters) or read-only from the data folder.
    private static func read<Report: Decodable>(
        _ type: Report.Type, _ path: String, _ query: FailscopeStore.WindowQuery, _ source: ReadSource,
        store: (FlakyReader) throws -> Report
    ) async throws -> Report {
        switch source {
        case .service(let client):
            var parameters = ["project": query.project, "days": String(query.days), "limit": String(query.limit)]
            if let branch = query.branch { parameters["branch"] = branch }
            do {
                return try await client.get(type, path, query: parameters)
            } catch let error as APIClientError {
                throw CommandError(RunsCommand.clean("\(error)"))  // it quotes the service: untrusted text
            }
        case .store(let directory, let database):
            do {
                return try store(try FlakyReader(directory: directory, database: database))
            } catch let error as StoreError {
                throw CommandError(store: error)
            }
        }
    }

    private static func pretty(_ report: some Encodable) throws -> String {
        let encoder = WireCoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    private static func testName(_ test: TestIdentity) -> String {
        "\(test.suite).\(test.name)\(test.arguments.map { "(\($0))" } ?? "")"
    }

    /// The terminal table: the slowest `subjects` (a column headed `column`, named by `name`), then the
    /// regressions. Durations carry their unit, as the dashboard writes them (`338 µs`, `4.2 ms`, `1.50 s`): a page
    /// action often takes less than a millisecond. Test-controlled text is escaped (`FlakyTable.cell`).
    static func table<Subject>(
        _ report: SubjectDurationReport<Subject>, _ subjects: String, _ column: String, name: (Subject) -> String
    ) -> String {
        func seconds(_ value: Double) -> String {
            value < 0.001
                ? String(format: "%.0f µs", value * 1_000_000)
                : value < 1 ? String(format: "%.1f ms", value * 1000) : String(format: "%.2f s", value)
        }
        var lines = [
            "Slowest \(subjects) since \(FlakyTable.day(report.since)) UTC: \(report.slowest.count)", "",
            FlakyTable.cell(column, 56) + " " + FlakyTable.cell("P50", 9, right: true) + " "
                + FlakyTable.cell("P95", 9, right: true) + " "
                + FlakyTable.cell(Subject.countKey.uppercased(), 8, right: true),
        ]
        for row in report.slowest {
            lines.append(
                FlakyTable.cell(name(row.subject), 56) + " " + FlakyTable.cell(seconds(row.p50), 9, right: true) + " "
                    + FlakyTable.cell(seconds(row.p95), 9, right: true) + " "
                    + FlakyTable.cell(String(row.count), 8, right: true))
        }
        lines.append("")
        let recent = SubjectDurationReport<Subject>.recentCount
        lines.append(
            "Slower than before (p50 of the newest \(recent) against the \(recent) before): "
                + "\(report.regressions.count)")
        for regression in report.regressions {
            lines.append(
                "  " + FlakyTable.cell(name(regression.subject), 56) + " " + seconds(regression.previousP50) + " → "
                    + seconds(regression.recentP50))
        }
        return lines.joined(separator: "\n")
    }
}
