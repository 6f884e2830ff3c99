import Foundation

/// `GET /api/v1/pages`: pages of a window ranked by flaky failures (then failures, then name), with
/// the page counts `PageList` had and the flaky-test columns (docs/flaky.md, "By page").
///
/// The window is `days` whole UTC days ending today: results that ran at or after `since`.
public struct FlakyPageList: Codable, Sendable, Hashable {
    public var since: Date
    public var pages: [FlakyPageSummary]

    public init(since: Date, pages: [FlakyPageSummary]) {
        self.since = since
        self.pages = pages
    }
}

/// One page in a window: `PageSummary`'s fields plus its flaky tests.
public struct FlakyPageSummary: Codable, Sendable, Hashable {
    /// The page, or `"(no page)"` for results without one (then `suite` says whose).
    public var page: String
    public var suite: String?
    /// Results attributed to this page.
    public var resultCount: Int
    /// Of those, results that failed or errored.
    public var failureCount: Int
    /// Distinct tests with at least one failing result on this page.
    public var failingTestCount: Int
    /// When the newest failing result on this page ran; `nil` when none failed.
    public var lastFailureAt: Date?
    /// Flaky tests with at least one failure on this page.
    public var flakyTestCount: Int
    /// Their failures on this page: the page's score.
    public var flakyFailureCount: Int
    /// When the newest of those failures ran.
    public var lastFlakyFailureAt: Date?
    /// Which devices those failures came from, most first.
    public var devices: [DeviceCount]

    public init(
        page: String, suite: String?, resultCount: Int, failureCount: Int, failingTestCount: Int, lastFailureAt: Date?,
        flakyTestCount: Int, flakyFailureCount: Int, lastFlakyFailureAt: Date?, devices: [DeviceCount]
    ) {
        self.page = page
        self.suite = suite
        self.resultCount = resultCount
        self.failureCount = failureCount
        self.failingTestCount = failingTestCount
        self.lastFailureAt = lastFailureAt
        self.flakyTestCount = flakyTestCount
        self.flakyFailureCount = flakyFailureCount
        self.lastFlakyFailureAt = lastFlakyFailureAt
        self.devices = devices
    }
}
