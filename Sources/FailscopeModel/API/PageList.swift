import Foundation

/// `GET /api/v1/pages`: pages seen in a window of days, most failing results first.
///
/// A result belongs to its page (the first failure's page, else the trail's last page).
public struct PageList: Codable, Sendable, Hashable {
    /// Results that ran at or after `since` are counted.
    public var since: Date
    public var pages: [PageSummary]

    public init(since: Date, pages: [PageSummary]) {
        self.since = since
        self.pages = pages
    }
}

/// One page's counts in a window.
public struct PageSummary: Codable, Sendable, Hashable {
    public var page: String
    /// Results attributed to this page.
    public var resultCount: Int
    /// Of those, results that failed or errored.
    public var failureCount: Int
    /// Distinct tests with at least one failing result on this page.
    public var failingTestCount: Int
    /// When the newest failing result on this page ran; `nil` when none failed.
    public var lastFailureAt: Date?

    public init(page: String, resultCount: Int, failureCount: Int, failingTestCount: Int, lastFailureAt: Date?) {
        self.page = page
        self.resultCount = resultCount
        self.failureCount = failureCount
        self.failingTestCount = failingTestCount
        self.lastFailureAt = lastFailureAt
    }
}
