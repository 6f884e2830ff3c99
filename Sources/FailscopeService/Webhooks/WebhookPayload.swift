import FailscopeModel
import FailscopeStore
import Foundation

/// Turns an evaluated event into the body a webhook receives (``WebhookEvent``, encoded with `WireCoding`): dashboard
/// links under the public URL and the Slack-compatible `text`.
struct WebhookPayload: Sendable {
    /// The dashboard's address, ending with `/`.
    let publicURL: String

    /// The event of `draft`.
    func event(_ draft: FailscopeStore.WebhookEventDraft) -> WebhookEvent {
        let summary = draft.run
        let runLink = link("#/runs/\(summary.run.id)")
        let run = WebhookRun(
            id: summary.run.id, project: summary.run.project, branch: summary.run.branch, commit: summary.run.commit,
            status: summary.status, counts: summary.counts, ciBuildURL: summary.run.ciBuildURL, url: runLink)
        let runLabel = "<\(runLink)|run \(summary.run.id)>"
        let project = "*\(Self.slackEscaped(summary.run.project))*"
        guard let change = draft.test else {
            let branch = summary.run.branch.map { " on `\(Self.slackEscaped($0))`" } ?? ""
            let text = "\(project) \(runLabel)\(branch) \(summary.status.rawValue): \(summary.counts.summaryText)"
            return WebhookEvent(
                id: draft.id, type: draft.type, createdAt: draft.createdAt, text: text, run: run, test: nil)
        }
        let testLink = link("#/tests/\(change.test.id)")
        let name = change.test.suite + "." + change.test.name + (change.test.arguments.map { "(\($0))" } ?? "")
        let testLabel = "<\(testLink)|\(Self.slackEscaped(name))>"
        let branch = change.branch.isEmpty ? "without a branch" : "on `\(Self.slackEscaped(change.branch))`"
        let what: String =
            switch change.state {
            case .flaky:
                "became flaky \(branch) (\(change.reasons.map { $0 == .flipRate ? "flip rate" : $0.rawValue }.joined(separator: ", ")))"
            case .broken: "is broken \(branch): every recent result on its newest commit fails"
            case .stable: "is no longer \(change.previousState.rawValue) \(branch)"
            }
        let test = WebhookTest(
            id: change.test.id, project: change.test.project, suite: change.test.suite, name: change.test.name,
            arguments: change.test.arguments, branch: change.branch, state: change.state,
            previousState: change.previousState, reasons: change.state == .flaky ? change.reasons : nil, url: testLink)
        return WebhookEvent(
            id: draft.id, type: draft.type, createdAt: draft.createdAt,
            text: "\(project) \(testLabel) \(what) (\(runLabel))",
            run: run, test: test)
    }

    /// The encoded body of `draft`.
    func body(_ draft: FailscopeStore.WebhookEventDraft) throws -> String {
        String(decoding: try WireCoding.encoder().encode(event(draft)), as: UTF8.self)
    }

    /// `fragment` (a dashboard route, `#/runs/…`; ids are URL-safe) under the public URL.
    private func link(_ fragment: String) -> String {
        publicURL
            + (fragment.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#"])) ?? fragment)
    }

    /// `text` as plain text in Slack's mrkdwn: `&`, `<` and `>` as entities (Slack's "Formatting text for app
    /// surfaces", escaping), so test-controlled text cannot make a link or a mention; line breaks as spaces.
    static func slackEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n", "\r", "\t": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}
