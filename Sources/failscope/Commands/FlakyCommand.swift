import FailscopeClient
import FailscopeModel
import FailscopeStore
import Foundation

/// `failscope flaky`: flaky tests (optionally of one page) and broken tests, or with `--pages` the pages
/// ranked by flaky failures, as a terminal table or the API's JSON, from a server or a data folder.
enum FlakyCommand: Command {
    static let name = "flaky"
    static let summary = "Flaky tests by page: which pages make the UI tests flaky, and which tests."
    static let usage = """
        USAGE: failscope flaky [--page <page>] [--suite <suite>] [--project <p>] [--branch <b> | --all-branches]
                               [--days <n>] [--device <d>] [--pages] [--json]
                               [--url <url> [--token <t>] | --data <dir> [--database <db>]]

        OPTIONS:
          --page <page>      Only tests with a failure on this page ("(no page)": results without one).
          --suite <suite>    With --page "(no page)": only this suite.
          --project <p>      Only this project.
          --branch <b>       Apply the rules on this branch. (default: main)
          --all-branches     Every branch, each judged on its own.
          --days <n>         Window of whole UTC days ending today, 1...365. (default: 14)
          --device <d>       Only results on this device.
          --pages            List pages ranked by flaky failures instead of tests.
          --json             Print the API's JSON instead of a table.
          --url <url>        Ask this Failscope service. (env FAILSCOPE_URL)
          --token <t>        Read token for --url. (env FAILSCOPE_READ_TOKEN)
          --data <dir>       Read this data folder directly, read-only. (default: .failscope; env FAILSCOPE_DATA)
          --database <db>    With --data: its database, a path, sqlite:PATH or postgres://… (default:
                             failscope.sqlite in --data; env FAILSCOPE_DATABASE)

          Rules: docs/flaky.md. Exit status 0 with or without flaky tests.
        """
    static let booleanFlags: Set<String> = ["json", "pages", "all-branches"]

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        var query = FailscopeStore.FlakyQuery()
        query.page = nonEmpty(arguments.option("page"))
        query.suite = nonEmpty(arguments.option("suite"))
        query.project = nonEmpty(arguments.option("project"))
        let branch = arguments.option("branch")
        let allBranches = arguments.flag("all-branches")
        if allBranches && branch != nil { throw UsageError("--branch and --all-branches exclude each other") }
        query.branch = allBranches ? nil : (branch ?? "main")
        query.days = try arguments.integer("days", default: 14, in: 1...365)
        query.device = nonEmpty(arguments.option("device"))
        if query.device == "*" { throw UsageError("--device '*' is reserved") }
        if query.suite != nil && query.page != FlakyReport.noPage {
            throw UsageError("--suite applies only with --page \"\(FlakyReport.noPage)\"")
        }
        let listPages = arguments.flag("pages")
        let json = arguments.flag("json")
        let urlOption = arguments.option("url")
        let data = arguments.option("data")
        let url = try data == nil ? arguments.serviceURL() : nil  // --data reads the folder whatever FAILSCOPE_URL says
        let token = arguments.token(else: "FAILSCOPE_READ_TOKEN")
        let directory = try arguments.dataDirectory()
        let database = try arguments.database()
        try arguments.checkAllConsumed()
        if data != nil && urlOption != nil { throw UsageError("--url and --data exclude each other") }

        let encoder = WireCoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        if let url, data == nil {
            let client = APIClient(baseURL: url, token: token)
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
                    print(json ? String(decoding: try encoder.encode(list), as: UTF8.self) : FlakyTable.pages(list, query))
                } else {
                    let report = try await client.get(FlakyReport.self, "api/v1/flaky", query: parameters)
                    print(json ? String(decoding: try encoder.encode(report), as: UTF8.self) : FlakyTable.tests(report))
                }
            } catch let error as APIClientError {
                throw CommandError(RunsCommand.clean("\(error)"))  // it quotes the service: untrusted text
            }
            return 0
        }
        do {
            let reader = try FlakyReader(directory: directory, database: database)
            if listPages {
                let list = try reader.flakyPages(query)
                print(json ? String(decoding: try encoder.encode(list), as: UTF8.self) : FlakyTable.pages(list, query))
            } else {
                let report = try reader.flakyTests(query)
                print(json ? String(decoding: try encoder.encode(report), as: UTF8.self) : FlakyTable.tests(report))
            }
        } catch let error as StoreError {
            throw CommandError(store: error)
        }
        return 0
    }

    private static func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
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
                    cell(name, 44) + " " + (branchColumn ? cell(test.branch, 16) + " " : "") + cell(test.flipRate.map { String(format: "%.2f", $0) } ?? "-", 5, right: true)
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
                    + cell(String(page.failureCount), 6, right: true) + " " + cell(String(page.resultCount), 8, right: true)
                    + "  " + cell(day(page.lastFlakyFailureAt), 16) + "  "
                    + RunsCommand.clean(
                        page.devices.map { "\($0.device.isEmpty ? "(none)" : $0.device) \($0.failureCount)" }
                            .joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }
}
