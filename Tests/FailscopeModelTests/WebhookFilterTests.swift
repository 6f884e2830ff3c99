import FailscopeModel
import XCTest

/// `WebhookFilter`: which events and branches a webhook is sent, and the glob its branch patterns use.
final class WebhookFilterTests: XCTestCase {
    func testBranchPatternsMatchWholeNamesWithStarForAnyCharacters() {
        let cases: [(pattern: String, branch: String, matches: Bool)] = [
            ("main", "main", true), ("main", "main2", false), ("main", "mai", false),
            ("release/*", "release/1.2", true), ("release/*", "release/", true), ("release/*", "release", false),
            ("release/*", "hotfix/release/1", false), ("*", "anything/at/all", true), ("*", "", false),
            ("feature/*-ios", "feature/login-ios", true), ("feature/*-ios", "feature/login-ios-2", false),
            ("a*b*c", "aXXbYYc", true), ("a*b*c", "aXXcYYb", false), ("*é", "café", true),
            ("**x", "yx", true), ("*a*a*a*a*a*a*b", String(repeating: "a", count: 4_000), false),
            ("*ab*ab*", "xabyabz", true), ("*ab*ab*", "xabyz", false), ("a*a", "a", false), ("a*a", "aa", true),
            ("*" + String(repeating: "a", count: 200) + "b*", String(repeating: "a", count: 4_096), false),
        ]
        for (pattern, branch, matches) in cases {
            XCTAssertEqual(
                WebhookFilter(branches: [pattern]).accepts(.runFinished, branch: branch), matches,
                "'\(pattern)' against '\(branch)'")
        }
    }

    func testEventsAndBranchesMustBothAccept() {
        let filter = WebhookFilter(events: [.testBroken, .testFixed], branches: ["main", "release/*"])
        XCTAssertTrue(filter.accepts(.testBroken, branch: "release/7"))
        XCTAssertFalse(filter.accepts(.testFlaky, branch: "main"))
        XCTAssertFalse(filter.accepts(.testFixed, branch: "feature/x"))
        XCTAssertTrue(WebhookFilter().accepts(.testFlaky, branch: ""), "no filter: every event of every branch")
        XCTAssertFalse(WebhookFilter(branches: ["*"]).accepts(.runFinished, branch: ""), "no branch matches no pattern")
    }

    func testProblemsAreNamed() {
        XCTAssertNil(WebhookFilter().problem)
        XCTAssertNil(WebhookFilter(events: [.runFinished], branches: ["main"]).problem)
        XCTAssertEqual(WebhookFilter(events: []).problem, "events must name at least one event type when given")
        XCTAssertEqual(WebhookFilter(branches: []).problem, "branches must name at least one branch pattern when given")
        XCTAssertEqual(WebhookFilter(branches: [""]).problem, "a branch pattern must be 1 to 255 bytes")
        XCTAssertEqual(
            WebhookFilter(branches: [String(repeating: "a", count: 256)]).problem,
            "a branch pattern must be 1 to 255 bytes")
        XCTAssertEqual(
            WebhookFilter(branches: ["ma\u{0}in"]).problem, "a branch pattern must not contain control characters")
        XCTAssertEqual(
            WebhookFilter(branches: (0...WebhookFilter.maximumBranches).map { "b\($0)" }).problem,
            "branches may name at most 20 patterns")
    }
}
