import Foundation

/// One result as listed inside a run or a test's history.
///
/// `page` and `callSite` are those of the first failure, or else of the trail's last step;
/// `message` is the first failure's message; `screenshot` the SHA-256 of the failure screenshot.
/// `quarantined`: a quarantine entry applied to the test when this result ran (README.md "Quarantine"); a failed
/// one is shown as "failed, quarantined".
public struct ResultSummary: Codable, Sendable, Hashable {
    /// The service's id of this result (`GET /api/v1/results/{id}`).
    public var id: Int
    public var runId: String
    public var testId: String
    public var suite: String
    public var name: String
    public var arguments: String?
    public var device: String?
    public var attempt: Int
    public var status: TestStatus
    public var startedAt: Date?
    /// Seconds; `nil` when unknown.
    public var duration: Double?
    public var page: String?
    public var callSite: SourceLocation?
    public var message: String?
    public var screenshot: String?
    public var quarantined: Bool

    public init(
        id: Int, runId: String, testId: String, suite: String, name: String, arguments: String?, device: String?,
        attempt: Int, status: TestStatus, startedAt: Date?, duration: Double?, page: String?,
        callSite: SourceLocation?, message: String?, screenshot: String?, quarantined: Bool = false
    ) {
        self.id = id
        self.runId = runId
        self.testId = testId
        self.suite = suite
        self.name = name
        self.arguments = arguments
        self.device = device
        self.attempt = attempt
        self.status = status
        self.startedAt = startedAt
        self.duration = duration
        self.page = page
        self.callSite = callSite
        self.message = message
        self.screenshot = screenshot
        self.quarantined = quarantined
    }
}

/// `GET /api/v1/runs/{runId}`: the run and its results grouped by page, then by call site.
///
/// Pages with failing results come first (most failing results first), then by name; results
/// without a page are in the group whose `page` is `nil`, last. Call sites are in file, line order.
public struct RunDetail: Codable, Sendable, Hashable {
    public var summary: RunSummary
    public var pages: [PageGroup]

    public init(summary: RunSummary, pages: [PageGroup]) {
        self.summary = summary
        self.pages = pages
    }

    /// The results of one page within a run.
    public struct PageGroup: Codable, Sendable, Hashable {
        public var page: String?
        public var counts: ResultCounts
        public var callSites: [CallSiteGroup]

        public init(page: String?, counts: ResultCounts, callSites: [CallSiteGroup]) {
            self.page = page
            self.counts = counts
            self.callSites = callSites
        }
    }

    /// The results of one call site within a page group.
    public struct CallSiteGroup: Codable, Sendable, Hashable {
        public var callSite: SourceLocation?
        public var results: [ResultSummary]

        public init(callSite: SourceLocation?, results: [ResultSummary]) {
            self.callSite = callSite
            self.results = results
        }
    }
}
