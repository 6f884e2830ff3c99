import FailscopeReporter
import Foundation
import XCTest

/// Not a test of its own: the process that `ParallelRunTests` starts to crash mid-test. It passes one
/// test, then dies of `fatalError` (SIGILL on x86_64, SIGTRAP on arm64) inside the next, after a page
/// action, and only
/// when `FAILSCOPE_CRASH_FIXTURE=1`; in an ordinary `swift test` both are skipped.
final class CrashFixtureTests: XCTestCase {
    static let switchVariable = "FAILSCOPE_CRASH_FIXTURE"

    override func setUpWithError() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment[Self.switchVariable] == "1",
            "a fixture: runs only in the crash tests of ParallelRunTests")
    }

    func testAPassesBeforeTheCrash() {
        XCTAssertEqual(1 + 1, 2)
    }

    func testBCrashesTheProcess() {
        // A page object's steps, as `BasePage` writes them: the crash keeps them.
        PageTrail.shared.enter(page: "CheckoutPage", file: #filePath, line: #line)
        PageTrail.shared.record(page: "CheckoutPage", action: "pay()", file: #filePath, line: #line, targetFrame: nil)
        fatalError("the crash fixture crashes here, as a test process one day will")
    }
}
