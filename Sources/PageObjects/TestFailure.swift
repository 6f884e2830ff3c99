import XCTest

/// Where page objects and the simulated screen report a failure: `XCTFail` at the test's line.
///
/// XCUITest tests set `continueAfterFailure = false`, which stops a test at its first failure.
/// swift-corelibs-xctest ignores that flag, so the base page emulates it: after the first failure
/// in a test, later page actions do nothing and later failures are not recorded.
public enum TestFailure {
    /// Records `message` as a test failure blamed on `file:line`, unless the test already failed.
    public static func record(_ message: String, file: StaticString, line: UInt, trail: PageTrail = .shared) {
        guard !trail.markFailed() else { return }
        XCTFail(message, file: file, line: line)
    }
}
