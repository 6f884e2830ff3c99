import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// `failscope flaky`: flaky tests (optionally of one page) and broken tests, or with `--pages` the pages
/// ranked by flaky failures, as a terminal table or the API's JSON, from a server or a data folder.
enum FlakyCommand: Command {
    static let name = "flaky"
    static let summary = "Flaky tests by page: which pages make the UI tests flaky, and which tests."
    static let discussion = "Rules: docs/flaky.md. Exit status 0 with or without flaky tests."

    // The filters are the API's parameters (docs/flaky.md): the service, or with --data the store, checks them.
    static let page = Option<String>(
        "page", value: "page",
        help: "Only tests with a failure on this page (\"\(FlakyReport.noPage)\": results without one).")
    static let suite = Option<String>(
        "suite", value: "suite", help: "With --page \"\(FlakyReport.noPage)\": only this suite.")
    static let project = Option<String>("project", value: "p", help: "Only this project.")
    static let branch = Option<String>("branch", value: "b", help: "Apply the rules on this branch.", default: "main")
    static let allBranches = Option<Bool>.flag("all-branches", help: "Every branch, each judged on its own.")
    static let days = Option<Int>(
        "days", value: "n", help: "Window of whole UTC days ending today.", default: FailscopeStore.FlakyQuery().days,
        parse: { text throws(InvalidValue) in
            guard let days = Int(text) else { throw InvalidValue(mustBe: "a whole number") }
            return days
        })
    static let device = Option<String>("device", value: "d", help: "Only results on this device.")
    static let pages = Option<Bool>.flag("pages", help: "List pages ranked by flaky failures instead of tests.")
    static let json = Option<Bool>.flag("json", help: "Print the API's JSON instead of a table.")
    static let options: [any OptionDeclaration] =
        [page, suite, project, branch, allBranches, days, device, pages, json] + ReadSource.options

    static func run(_ arguments: Arguments) async throws -> Int32 {
        var query = FailscopeStore.FlakyQuery()
        query.page = try arguments.value(Self.page).flatMap(nonEmpty)
        query.suite = try arguments.value(Self.suite).flatMap(nonEmpty)
        query.project = try arguments.value(Self.project).flatMap(nonEmpty)
        let allBranches = arguments.flag(Self.allBranches)
        if allBranches && arguments.isGiven(Self.branch) {
            throw UsageError("--branch and --all-branches exclude each other")
        }
        query.branch = allBranches ? nil : try arguments.required(Self.branch)
        query.days = try arguments.required(Self.days)
        query.device = try arguments.value(Self.device).flatMap(nonEmpty)
        let listPages = arguments.flag(pages)
        let json = arguments.flag(Self.json)
        let source = try arguments.readSource()
        // The one rule of the filters that the store leaves to its callers; --pages takes no suite either.
        if let problem = FlakyReport.filterProblem(page: query.page, suite: query.suite) {
            throw UsageError(problem)
        }

        let encoder = WireCoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        switch source {
        case .service(let client):
            var parameters = ["days": String(query.days)]
            for (key, value) in [
                ("page", query.page), ("suite", query.suite), ("project", query.project), ("branch", query.branch),
                ("device", query.device),
            ] {
                if let value { parameters[key] = value }
            }
            do {
                if listPages {
                    let list = try await client.get(FlakyPageList.self, "api/v1/pages", query: parameters)
                    print(
                        json ? String(decoding: try encoder.encode(list), as: UTF8.self) : FlakyTable.pages(list, query)
                    )
                } else {
                    let report = try await client.get(FlakyReport.self, "api/v1/flaky", query: parameters)
                    print(json ? String(decoding: try encoder.encode(report), as: UTF8.self) : FlakyTable.tests(report))
                }
            } catch .status(400, _, let message) as APIClientError {
                throw UsageError(RunsCommand.clean(message))  // a filter the service refuses
            } catch let error as APIClientError {
                throw CommandError(RunsCommand.clean("\(error)"))  // it quotes the service: untrusted text
            }
        case .store(let directory, let database):
            let reader: FlakyReader
            do {
                reader = try FlakyReader(directory: directory, database: database)
            } catch {
                throw CommandError(store: error)
            }
            do {
                if listPages {
                    let list = try reader.flakyPages(query)
                    print(
                        json ? String(decoding: try encoder.encode(list), as: UTF8.self) : FlakyTable.pages(list, query)
                    )
                } else {
                    let report = try reader.flakyTests(query)
                    print(json ? String(decoding: try encoder.encode(report), as: UTF8.self) : FlakyTable.tests(report))
                }
            } catch .invalid(let message) as StoreError {
                throw UsageError(RunsCommand.clean(message))  // a filter the store refuses, as the API does
            } catch {
                throw CommandError(store: error)
            }
        }
        return 0
    }

    private static func nonEmpty(_ value: String) -> String? {
        value.isEmpty ? nil : value
    }
}

/// The terminal tables of `failscope flaky`.
enum FlakyTable {
    static func day(_ date: Date?) -> String {
        guard let date else { return "-" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// Pads or cuts `text` to `width` characters, escaped by `RunsCommand.clean` (test text is untrusted).
    static func cell(_ text: String, _ width: Int, right: Bool = false) -> String {
        var clean = RunsCommand.clean(text)
        if clean.count > width { clean = String(clean.prefix(width - 1)) + "…" }
        let padding = String(repeating: " ", count: width - clean.count)
        return right ? padding + clean : clean + padding
    }

    static func scope(_ since: Date, days: Int, project: String?, branch: String?, device: String?) -> String {
        var parts = ["last \(days) day\(days == 1 ? "" : "s") (since \(day(since)) UTC)"]
        parts.append(branch.map { "branch \($0)" } ?? "all branches")
        if let project { parts.append("project \(project)") }
        if let device { parts.append("device \(device)") }
        return parts.joined(separator: ", ")
    }

    static func tests(_ report: FlakyReport) -> String {
        var lines: [String] = []
        let title = report.page.map { "Flaky tests on \($0)\(report.suite.map { " (\($0))" } ?? "")" } ?? "Flaky tests"
        lines.append(
            RunsCommand.clean(
                "\(title): \(report.flaky.count), \(scope(report.since, days: report.days, project: report.project, branch: report.branch, device: report.device))"
            ))
        if !report.flaky.isEmpty {
            lines.append("")
            // Across branches, the branch gets its own column (a suffix on the name was cut off with it).
            let branchColumn = report.branch == nil
            lines.append(
                cell("TEST", 44) + " " + (branchColumn ? cell("BRANCH", 16) + " " : "") + cell("FLIP", 5, right: true)
                    + " " + cell("PASS", 5, right: true) + " " + cell("FAIL", 5, right: true) + " "
                    + cell("COMMITS", 7, right: true) + "  " + cell("PAGES", 28) + " LAST FAILURE")
            for test in report.flaky {
                let name = "\(test.suite).\(test.name)\(test.arguments.map { "(\($0))" } ?? "")"
                let pages = test.pages.map { "\($0.page)(\($0.failureCount))" }.joined(separator: " ")
                lines.append(
                    cell(name, 44) + " " + (branchColumn ? cell(test.branch, 16) + " " : "")
                        + cell(test.flipRate.map { String(format: "%.2f", $0) } ?? "-", 5, right: true)
                        + " " + cell(String(test.passCount), 5, right: true) + " "
                        + cell(String(test.failCount), 5, right: true) + " "
                        + cell(String(test.contradictingCommitCount), 7, right: true) + "  " + cell(pages, 28) + " "
                        + day(test.lastFlakyFailureAt))
            }
        }
        if !report.broken.isEmpty {
            lines.append("")
            lines.append("Broken (failing every recent result on the newest commit; not flaky): \(report.broken.count)")
            for test in report.broken {
                lines.append(
                    "  " + cell("\(test.suite).\(test.name)", 44) + " on \(cell(String(test.commit.prefix(12)), 12)) "
                        + "\(test.failCount) failing"
                        + (report.branch == nil ? " @\(RunsCommand.clean(test.branch))" : ""))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func pages(_ list: FlakyPageList, _ query: FailscopeStore.FlakyQuery) -> String {
        var lines = [
            RunsCommand.clean(
                "Pages by flaky failures: \(scope(list.since, days: query.days, project: query.project, branch: query.branch, device: query.device))"
            ),
            "",
            cell("PAGE", 32) + " " + cell("FLAKY", 6, right: true) + " " + cell("SCORE", 6, right: true) + " "
                + cell("FAILS", 6, right: true) + " " + cell("RESULTS", 8, right: true) + "  " + cell("LAST FLAKY", 16)
                + "  DEVICES",
        ]
        for page in list.pages {
            let name = page.page + (page.suite.map { " \($0)" } ?? "")
            lines.append(
                cell(name, 32) + " " + cell(String(page.flakyTestCount), 6, right: true) + " "
                    + cell(String(page.flakyFailureCount), 6, right: true) + " "
                    + cell(String(page.failureCount), 6, right: true) + " "
                    + cell(String(page.resultCount), 8, right: true)
                    + "  " + cell(day(page.lastFlakyFailureAt), 16) + "  "
                    + RunsCommand.clean(
                        page.devices.map { "\($0.device.isEmpty ? "(none)" : $0.device) \($0.failureCount)" }
                            .joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }
}
