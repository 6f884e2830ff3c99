import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// `failscope slowest`: a project's slowest tests by p95 and its duration regressions (docs/durations.md), as a
/// terminal table or the API's JSON, from a Failscope service or a data folder.
enum SlowestCommand: Command {
    static let name = "slowest"
    static let summary = "The slowest tests of a project and the tests that became slower."
    static let discussion = """
        Durations of passing results; p50 and p95 by nearest rank; a regression is a p50 of the newest 10
        results at least 20 % and 0.1 s above the p50 of the 10 before (docs/durations.md).
        """

    // The filters are the API's parameters: the service, or with --data the store, checks their ranges.
    static let project = Option<String>("project", value: "p", help: "The project.", required: true)
    static let branch = Option<String>(
        "branch", value: "b", help: "Only results on this branch.", defaultHelp: "every branch")
    static let days = Option<Int>.integer(
        "days", in: 1...365, help: "Window of whole UTC days ending today.", default: 14)
    static let limit = Option<Int>.integer("limit", in: 1...200, help: "Rows per list.", default: 20)
    static let json = Option<Bool>.flag("json", help: "Print the API's JSON instead of a table.")
    static let options: [any OptionDeclaration] = [project, branch, days, limit, json] + ReadSource.options

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let project = try arguments.required(Self.project)
        guard !project.isEmpty else { throw UsageError("--project must not be empty") }
        var query = FailscopeStore.WindowQuery(project: project)
        query.branch = try arguments.value(Self.branch).flatMap { $0.isEmpty ? nil : $0 }
        query.days = try arguments.required(Self.days)
        query.limit = try arguments.required(Self.limit)
        let json = arguments.flag(Self.json)
        let report: DurationReport
        switch try arguments.readSource() {
        case .service(let client):
            var parameters = ["project": project, "days": String(query.days), "limit": String(query.limit)]
            if let branch = query.branch { parameters["branch"] = branch }
            do {
                report = try await client.get(DurationReport.self, "api/v1/durations", query: parameters)
            } catch let error as APIClientError {
                throw CommandError(RunsCommand.clean("\(error)"))  // it quotes the service: untrusted text
            }
        case .store(let directory, let database):
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
        let recent = DurationReport.recentResults
        lines.append(
            "Slower than before (p50 of the newest \(recent) against the \(recent) before): "
                + "\(report.regressions.count)")
        for regression in report.regressions {
            lines.append(
                "  " + FlakyTable.cell(name(regression.test), 56) + " " + seconds(regression.previousP50) + " s → "
                    + seconds(regression.recentP50) + " s")
        }
        return lines.joined(separator: "\n")
    }
}
