/// The outcome of one attempt of one test, in XCTest's and JUnit's vocabulary.
///
/// - `passed`: every assertion held.
/// - `failed`: an assertion failed (XCTest `failureCount > 0`, JUnit `<failure>`).
/// - `error`: the test threw or crashed (XCTest `unexpectedExceptionCount > 0`, JUnit `<error>`).
/// - `skipped`: not run, with a reason (`XCTSkip`, JUnit `<skipped>`).
/// - `expectedFailure`: failed as the test declared it would (`XCTExpectFailure`, `withKnownIssue`).
public enum TestStatus: String, Codable, Sendable, CaseIterable, Hashable {
    case passed
    case failed
    case error
    case skipped
    case expectedFailure = "expected_failure"

    /// Pass/fail outcome used by the flaky analysis: failed and error count as fail,
    /// skipped counts as neither (`nil`), an expected failure counts as a pass.
    public var outcome: Outcome? {
        switch self {
        case .passed, .expectedFailure: .pass
        case .failed, .error: .fail
        case .skipped: nil
        }
    }

    /// The statuses whose outcome is a failure: `failed` and `error`.
    public static let failing: Set<TestStatus> = Set(allCases.filter { $0.outcome == .fail })

    /// The two outcomes that flaky analysis compares.
    public enum Outcome: String, Sendable, Hashable {
        case pass, fail
    }
}
