import FailscopeReporter
import Foundation
import Testing
import XCTest

/// Tests that skip, fail and throw on purpose, for `ObserverRunTests` to run in a child process with
/// the reporter on (`FAILSCOPE_REPORTER_FIXTURES=1`). In any other run they are skipped.
enum ReporterFixtures {
    static let enabled = ProcessInfo.processInfo.environment["FAILSCOPE_REPORTER_FIXTURES"] == "1"
    static let skipReason = "the fixture has no network"
}

/// A results-only XCTest suite: no page objects, no screen capture registered.
final class ReporterFixtureTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(ReporterFixtures.enabled, "a fixture of ObserverRunTests")
    }

    func testPasses() {
        XCTAssertEqual(1 + 1, 2)
    }

    func testSkipsWithAReason() throws {
        throw XCTSkip(ReporterFixtures.skipReason)
    }

    func testSkipsOnACondition() throws {
        try XCTSkipIf(true)
    }
}

/// A suite whose setUp throws: XCTest skips the test body and fails the test.
final class ReporterFixtureSetUpTests: XCTestCase {
    struct NoDatabase: Error, CustomStringConvertible {
        var description: String { "no database at /nonexistent" }
    }

    override func setUpWithError() throws {
        try XCTSkipUnless(ReporterFixtures.enabled, "a fixture of ObserverRunTests")
        throw NoDatabase()
    }

    func testNeedsADatabase() {}
}

/// A results-only Swift Testing suite: an expectation with a comment and a `#require` that stops the test.
@Suite(.failscope, .enabled(if: ReporterFixtures.enabled))
struct ReporterFixtureSwiftTests {
    @Test func expectationWithAComment() {
        let sum = 1 + 1
        #expect(sum == 3, "arithmetic is broken")
    }

    @Test func requireStopsTheTest() throws {
        let missing: Int? = nil
        _ = try #require(missing, "no value")
        Issue.record("not reached: #require stops the test")
    }
}
