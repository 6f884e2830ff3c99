import Foundation

/// `GET /api/v1/tests/{testId}/history`: a test's results, newest first, with each run's branch and
/// commit. `nextCursor` is opaque (pass it as `?cursor=`); `nil` on the last page.
public struct TestHistory: Codable, Sendable, Hashable {
    public var test: TestIdentity
    public var entries: [Entry]
    public var nextCursor: String?

    public init(test: TestIdentity, entries: [Entry], nextCursor: String?) {
        self.test = test
        self.entries = entries
        self.nextCursor = nextCursor
    }

    /// One result of the test with the run facts the history view shows.
    public struct Entry: Codable, Sendable, Hashable {
        public var result: ResultSummary
        public var branch: String?
        public var commit: String?
        /// `startedAt` of the result, or the run's start when the result has none.
        public var ranAt: Date

        public init(result: ResultSummary, branch: String?, commit: String?, ranAt: Date) {
            self.result = result
            self.branch = branch
            self.commit = commit
            self.ranAt = ranAt
        }
    }
}
