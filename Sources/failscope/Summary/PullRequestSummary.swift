import FailscopeModel
import Foundation

/// A `RunComparison` as GitHub-flavoured Markdown, for a pull request or `$GITHUB_STEP_SUMMARY`:
/// a headline, then new failures, still failing, quarantined failures (forgiven), flaky on retry and fixed
/// tests, each row with its
/// page, call site (or failure location), a screenshot link and a dashboard link.
///
/// Test-controlled text is untrusted: it is escaped so that it can neither close a table cell nor
/// become a link, an image, emphasis or HTML (GitHub renders HTML inside Markdown).
struct PullRequestSummary {
    var comparison: RunComparison
    /// The service's base URL, for dashboard and screenshot links.
    var serviceURL: URL
    /// The most rows a section lists; the rest are counted.
    var rowLimit = 20

    var markdown: String {
        let run = comparison.run
        var lines: [String] = []
        let verdict =
            run.status == .failed
            ? (run.statusWithQuarantine == .passed ? "✅ passed with quarantined failures" : "❌ failed")
            : run.status == .passed ? "✅ passed" : "⏳ incomplete"
        var headline = "### Failscope: \(verdict)"
        var changes: [String] = []
        if !comparison.newFailures.isEmpty { changes.append("\(comparison.newFailures.count) new failure(s)") }
        if !comparison.quarantined.isEmpty { changes.append("\(comparison.quarantined.count) quarantined") }
        if !comparison.fixed.isEmpty { changes.append("\(comparison.fixed.count) fixed") }
        if !comparison.flaky.isEmpty { changes.append("\(comparison.flaky.count) flaky") }
        if !changes.isEmpty { headline += ": " + changes.joined(separator: ", ") }
        lines.append(headline)
        lines.append("")
        let counts = run.counts
        lines.append(
            "\(counts.total) results: \(counts.passed) passed, \(counts.failed) failed, \(counts.error) errors, "
                + "\(counts.skipped) skipped"
                + (counts.quarantinedFailingTests > 0
                    ? ", \(counts.quarantinedFailingTests) failing test(s) quarantined" : "")
                + " · [run \(Self.escaped(run.run.id))](\(link("#/runs/\(run.run.id)")))")
        if let base = comparison.base {
            let commit = base.run.commit.map { " at `" + Self.code(String($0.prefix(10))) + "`" } ?? ""
            lines.append(
                "Compared with [run \(Self.escaped(base.run.id))](\(link("#/runs/\(base.run.id)"))) of "
                    + "\(Self.escaped(base.run.branch ?? "no branch"))\(commit) (\(base.status.rawValue)).")
        } else {
            lines.append("No base run to compare with: every failure counts as new.")
        }
        section("New failures", comparison.newFailures, into: &lines)
        section("Still failing", comparison.stillFailing, into: &lines)
        section("Failed, quarantined (forgiven)", comparison.quarantined, into: &lines)
        section("Flaky: passed on retry", comparison.flaky, into: &lines)
        section("Fixed", comparison.fixed, into: &lines)
        if !comparison.newTests.isEmpty || !comparison.removedTests.isEmpty {
            lines.append("")
            lines.append("\(comparison.newTests.count) new test(s), \(comparison.removedTests.count) removed.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func section(_ title: String, _ results: [ResultSummary], into lines: inout [String]) {
        guard !results.isEmpty else { return }
        lines += [
            "", "#### \(title) (\(results.count))", "", "| Test | Page | Where | Screenshot |", "|---|---|---|---|",
        ]
        for result in results.prefix(rowLimit) {
            let name = result.arguments.map { "\(result.name) (\($0))" } ?? result.name
            let device = result.device.map { " · " + Self.escaped($0) } ?? ""
            let test = "[\(Self.escaped("\(result.suite).\(name)"))](\(link("#/results/\(result.id)")))\(device)"
            let page = result.page.map(Self.escaped) ?? "–"
            let place = result.callSite.map { "`" + Self.code($0.description) + "`" } ?? "–"
            let screenshot = result.screenshot.map { "[PNG](\(link("artifacts/\($0).png")))" } ?? "–"
            lines.append("| \(test) | \(page) | \(place) | \(screenshot) |")
            if let message = result.message {
                lines.append("| ↳ " + Self.escaped(String(message.prefix(200))) + " | | | |")
            }
        }
        if results.count > rowLimit { lines += ["", "… and \(results.count - rowLimit) more in the dashboard."] }
    }

    /// An absolute link into the service: `path` is a dashboard fragment (`#/runs/…`) or a service path.
    private func link(_ path: String) -> String {
        let base =
            serviceURL.absoluteString.hasSuffix("/") ? serviceURL.absoluteString : serviceURL.absoluteString + "/"
        // Ids are ASCII letters, digits and `._-`; a parenthesis would end the Markdown link.
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.union(["#"])) ?? path
        return base + encoded.replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")
    }

    /// `text` as inert Markdown inside a table cell: HTML and Markdown punctuation backslash-escaped
    /// or as entities, line breaks as spaces, control and invisible characters as `<U+…>`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in RunsCommand.clean(text) {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "|": result += "\\|"
            case "\n", "\r": result += " "
            case "\\", "`", "*", "_", "[", "]", "(", ")", "#", "!", "~": result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return result
    }

    /// `text` for inside a code span: backticks and line breaks cannot end it or the cell.
    static func code(_ text: String) -> String {
        RunsCommand.clean(text).replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "¦")
    }
}
